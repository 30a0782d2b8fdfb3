import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFindings, runAxe } from './a11y';
import { type Browser, openBrowser, type RunningServer, startServer } from './harness';
import { prepareSweep, ROUTES, type SweepUser, useSettings, visitRoute } from './route-sweep';

/**
 * Issue 15: axe on every route, not only those the flow tests happen to visit. The routes and the seeded user come
 * from ./route-sweep.ts (the app's own page table, a record of each kind): the user visits each route, the detail
 * pages with a real record's id, in German and the dark theme and then in English and the light theme. Each
 * route gets its own test and an explicit check with all of axe's rules in the pass's theme (the two passes cover
 * both themes, so the watch's second colour run in the other theme would only repeat them); a serious or critical
 * finding fails that route's test with the watch's readable list.
 *
 * One browser and one session for the whole sweep (a route is a navigation, not a new login).
 */
let server: RunningServer;
let browser: Browser;
/** The page without the watch's hooks: a navigation does not first re-check the previous route. */
let page: Page;

/** Impacts that fail a route, as in the watch. */
const FAILING = new Set(['serious', 'critical']);
/** Transitions and animations end at once, so no colour is read half-way (the watch does the same). */
const FREEZE =
  '*, *::before, *::after { transition: none !important; animation-duration: 0s !important; animation-delay: 0s !important; }';

/** All of axe's rules on the page as it is; throws the readable list on a serious or critical violation. */
async function checkRoute(theme: string, why: string): Promise<void> {
  await page.addStyleTag({ content: FREEZE });
  const results = await runAxe(page);
  const findings = results.violations
    .filter((v) => FAILING.has(v.impact ?? ''))
    .map((violation) => ({ theme, violation }));
  if (findings.length > 0) throw new Error(describeFindings(why, findings));
}

describe('every route passes axe', () => {
  let user: SweepUser;

  beforeAll(async () => {
    server = await startServer();
    user = await prepareSweep(server, 'a11y-routes@example.com');
    browser = await openBrowser();
    page = browser.context.pages()[0] as Page;
  }, 180_000);

  afterAll(async () => {
    // Every route was checked by its own test; a last check would only repeat the final one.
    await browser?.close({ skipA11y: true });
    await server?.stop();
  });

  describe.each([
    { lang: 'de', theme: 'dark' },
    { lang: 'en', theme: 'light' },
  ] as const)('in $lang and the $theme theme', ({ lang, theme }) => {
    beforeAll(async () => {
      await useSettings(page, server, user.session, lang, theme);
    });

    it.each(ROUTES)('%s', async (path) => {
      await visitRoute(page, server, path, user.search);
      expect(
        await page.evaluate(() => [document.documentElement.lang, document.documentElement.dataset.theme]),
      ).toEqual([lang, theme]);
      await checkRoute(theme, `on ${page.url().replace(server.url, '')} in ${lang}`);
      // Pictures for looking at (E2E_SHOTS), taken directly: the harness's shot would check the route a second time.
      const dir = process.env.E2E_SHOTS;
      if (dir) await page.screenshot({ path: join(dir, `routes-${lang}-${theme}${path.replaceAll('/', '-')}.png`) });
    });
  });
});
