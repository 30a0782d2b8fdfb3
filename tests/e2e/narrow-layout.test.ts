import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOperator } from './console-session';
import { type Browser, openBrowser, type RunningServer, startServer } from './harness';
import { text } from './locale';
import { PUBLIC_ROUTES, prepareSweep, ROUTES, type SweepUser, useSettings, visitRoute } from './route-sweep';

/**
 * Issue 26 ("German and layout"): no page is wider than a phone. Every route of the app's page table (./route-sweep.ts,
 * the same routes and seeded records as the accessibility sweep) is opened in German, the language with the longest
 * words, at 320x700 and then, without reloading, at 375x812: as the logged-in user, then the public routes as a
 * guest, then each screen of the support console as an operator. On each the document must not be wider than the
 * viewport and the main region's content not wider than the region (the document is the app's scroller; a region
 * that clipped its content would hide the overflow from the document). Every tab label must sit on one line and
 * inside its tab, so neighbouring labels never wrap or run together ("Positionen (2)", "Abgeschlossen|Zurückgegeben").
 *
 * One browser, one page and one session for the whole file; a failure names the elements that stick out.
 */
let server: RunningServer;
let browser: Browser;
/** The page without the accessibility watch (a11y-routes checks every route already). */
let page: Page;
let user: SweepUser;

const PHONES = [
  { width: 320, height: 700 },
  { width: 375, height: 812 },
] as const;

/** What is wrong with the page at the current viewport; empty when it fits. */
interface Misfit {
  /** The document's and the main region's widths, when wider than they may be. */
  widths: string[];
  /** The outermost elements that reach past the viewport's right edge (not inside a horizontal scroller). */
  sticking: string[];
  /** Tabs whose label wraps or overflows the tab. */
  tabs: string[];
}

/** Runs in the page: measures it at the current viewport. */
function misfits(): Misfit {
  const vw = window.innerWidth;
  const named = (el: Element) => {
    const cls =
      typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    return `${el.tagName.toLowerCase()}${cls} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
  };
  const widths: string[] = [];
  const root = document.documentElement;
  if (root.scrollWidth > vw) widths.push(`document ${root.scrollWidth}px wide in ${vw}px`);
  const main = document.querySelector('main');
  if (main && main.scrollWidth > main.clientWidth)
    widths.push(`main content ${main.scrollWidth}px wide in ${main.clientWidth}px`);

  // A horizontal scroller (a row of chips) may hold more than the screen: what it holds is not the page's width.
  // Fixed layers (the side menu, toasts) are placed against the viewport, off screen while closed.
  const aside = (el: Element) => {
    for (let a: Element | null = el; a && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.position === 'fixed' || (a !== el && style.overflowX !== 'visible')) return true;
    }
    return false;
  };
  const sticking: Element[] = [];
  for (const el of Array.from(document.body.querySelectorAll('*'))) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= vw + 0.5) continue;
    // Only the outermost: the children sticking out with it would repeat it.
    if (sticking.some((outer) => outer.contains(el)) || aside(el)) continue;
    sticking.push(el);
    if (sticking.length === 5) break;
  }

  const tabs: string[] = [];
  for (const tab of Array.from(document.querySelectorAll('[role="tab"]'))) {
    if (!(tab instanceof HTMLElement) || tab.offsetParent === null) continue;
    // The label's text fragments, top to bottom: a fragment starting below the line before it starts a new line.
    const fragments: DOMRect[] = [];
    const walker = document.createTreeWalker(tab, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      fragments.push(...Array.from(range.getClientRects()).filter((r) => r.width > 0));
    }
    fragments.sort((a, b) => a.top - b.top);
    let lines = 0;
    let lineBottom = Number.NEGATIVE_INFINITY;
    for (const r of fragments) {
      if (r.top >= lineBottom - 1) lines++;
      lineBottom = Math.max(lineBottom, r.bottom);
    }
    const label = (tab.textContent ?? '').trim();
    if (lines > 1) tabs.push(`"${label}" on ${lines} lines`);
    if (tab.scrollWidth > tab.clientWidth)
      tabs.push(`"${label}" ${tab.scrollWidth}px wide in a ${tab.clientWidth}px tab`);
  }
  return { widths, sticking: sticking.map(named), tabs };
}

const FITS: Misfit = { widths: [], sticking: [], tabs: [] };

/** Two frames: layout, resize observers and what React commits from them are done. */
const frames = (p: Page) =>
  p.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

/** Checks the page as it is at 320 and then at 375 (resized in place: the layout follows the viewport). */
async function checkBothPhones(where: string): Promise<void> {
  for (const [i, phone] of PHONES.entries()) {
    if (i > 0) {
      await page.setViewportSize(phone);
      await frames(page);
    }
    expect(await page.evaluate(misfits), `${where} at ${phone.width}px`).toEqual(FITS);
  }
}

/** The labels of the page's tabs. */
const tabLabels = () => page.getByRole('tab').allTextContents();

describe('no page is wider than a phone, in German', () => {
  beforeAll(async () => {
    server = await startServer();
    user = await prepareSweep(server, 'narrow-layout@example.com');
    browser = await openBrowser();
    page = browser.context.pages()[0] as Page;
  }, 180_000);

  afterAll(async () => {
    await browser?.close({ skipA11y: true });
    await server?.stop();
  });

  describe('as the logged-in user', () => {
    beforeAll(async () => {
      await useSettings(page, server, user.session, 'de', 'dark');
    });

    it.each(ROUTES)('%s', async (path) => {
      await page.setViewportSize(PHONES[0]);
      await visitRoute(page, server, path, user.search);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
      await checkBothPhones(path);
    });

    // The tabs the issue named are there, so the one-line check above is not vacuous for them.
    it('checks the finance order tabs and the contract list tabs', async () => {
      await page.setViewportSize(PHONES[0]);
      await visitRoute(page, server, '/pages/finance/ordersPage', user.search);
      expect(await tabLabels()).toEqual(
        expect.arrayContaining(
          ['hosting', 'completed', 'redeemed'].map((s) => text('de', `finance.orders.states.${s}`)),
        ),
      );
      await checkBothPhones('finance orders');

      await page.setViewportSize(PHONES[0]);
      await visitRoute(page, server, '/pages/lever/simulator', user.search);
      const positions = new RegExp(`^${text('de', 'lever.tabs.positions').replace('({{n}})', '\\(\\d+\\)')}$`);
      await expect
        .poll(tabLabels, { timeout: 15_000 })
        .toEqual(expect.arrayContaining([expect.stringMatching(positions)]));
      await checkBothPhones('lever simulator with a position');
    });
  });

  describe('as a guest', () => {
    beforeAll(async () => {
      await useSettings(page, server, null, 'de', 'dark');
    });

    it.each(PUBLIC_ROUTES)('%s', async (path) => {
      await page.setViewportSize(PHONES[0]);
      await visitRoute(page, server, path, user.search);
      await checkBothPhones(path);
    });
  });

  it('the support console, signed out and on each screen', async () => {
    await page.setViewportSize(PHONES[0]);
    await page.goto(`${server.url}/ops`);
    await page.getByRole('button', { name: text('de', 'console.login.submit') }).waitFor();
    await checkBothPhones('console sign-in');

    await signInOperator(server, page, 'ada', ['admin', 'support', 'reviewer', 'qa'], '/ops/deposits');
    const screens = await page.locator('.ops-nav a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(screens.length).toBeGreaterThan(5);
    for (const href of screens) {
      await page.setViewportSize(PHONES[0]);
      await page.goto(`${server.url}${href}`);
      await page.locator('main h1').first().waitFor();
      await expect.poll(() => page.locator('.spinner').count(), { timeout: 20_000 }).toBe(0);
      await frames(page);
      await checkBothPhones(`console ${href}`);
    }
  });
});
