import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserPerTest, type InProcessServer, startServerInProcess } from './harness';
import { text } from './locale';
import { loggedInUser } from './users';

/**
 * Reach: on Spot, Options and Contracts at 375x812 the primary action is on screen on first render, above the tab
 * bar, without a scroll, in German and English (the ticket is taller than the screen; the action stays in reach).
 * Judged from the element's box against the viewport and the tab bar's box.
 */
let server: InProcessServer;
let page: Page;

const TRADE_PAGES = [
  {
    name: 'spot',
    path: '/pages/trade/index?symbol=BTC',
    action: (lang: 'de' | 'en') => buttonNamed(lang, 'spot.submitBuy'),
  },
  { name: 'options', path: '/pages/option/simulator?symbol=BTC', action: () => page.getByTestId('buy-up') },
  { name: 'lever', path: '/pages/lever/simulator?symbol=BTC', action: () => page.getByTestId('ticket-confirm') },
] as const;

const buttonNamed = (lang: 'de' | 'en', key: string) =>
  page.getByRole('button', { name: text(lang, key).replace('{{coin}}', 'BTC') });

describe('the primary action is in reach at 375x812', () => {
  browserPerTest(
    () => startServerInProcess(),
    (s) => {
      server = s;
    },
    (b) => {
      page = b.page;
    },
  );

  for (const lang of ['de', 'en'] as const) {
    it(`on spot, options and contracts in ${lang}`, async () => {
      await loggedInUser(server, page, `reach-${lang}@example.com`, { lang });
      for (const trade of TRADE_PAGES) {
        await page.goto(`${server.url}${trade.path}`);
        const action = trade.action(lang);
        await action.waitFor({ state: 'attached', timeout: 20_000 });
        const place = await action.evaluate((element) => {
          const box = element.getBoundingClientRect();
          const tabbar = document.querySelector('.tabbar')?.getBoundingClientRect();
          return {
            top: box.top,
            bottom: box.bottom,
            height: box.height,
            above: tabbar ? tabbar.top : window.innerHeight,
            scrolled: window.scrollY,
          };
        });
        expect(place.scrolled, trade.name).toBe(0);
        expect(place.height, trade.name).toBeGreaterThan(30);
        expect(place.top, trade.name).toBeGreaterThanOrEqual(0);
        expect(place.bottom, `${trade.name}: ${JSON.stringify(place)}`).toBeLessThanOrEqual(place.above);
      }
    });
  }
});
