import { describe, expect, it } from 'vitest';
import { formatPrice } from '../../src/lib/format';
import {
  boxesOf,
  carriedSnapshot,
  earlyShot,
  expectSameBoxes,
  holdRequests,
  withoutLivePrices,
} from './first-paint-page';
import { type Browser, browserPerTest, type RunningServer, shot, startServer } from './harness';
import { text } from './locale';
import { loggedInUser } from './users';

/**
 * A trading tab opened first draws its price header before any script (issue 27, src/first-paint/trade-tab.ts): from
 * the snapshot the server wrote into the page, in the stored language and theme, and the app then draws the same
 * header on the same boxes with the same price (nothing moves, no frame without a price), keeping the chips' row's
 * place until the tab's terms name them.
 */
let server: RunningServer;
let browser: Browser;

browserPerTest(
  () => startServer(),
  (started) => {
    server = started;
  },
  (opened) => {
    browser = opened;
  },
);

interface Tab {
  name: string;
  path: string;
  symbol: string;
  last: string;
  lang: 'de' | 'en';
  theme: 'dark' | 'light';
  /** The header's title's key, and the boxes the first paint and the app must agree on. */
  title: string;
  boxes: string[];
  /** What stands once the app has drawn the whole tab. */
  drawn: string;
}

const TABS: Tab[] = [
  {
    name: 'Lever',
    path: '/pages/lever/index?symbol=BTC',
    symbol: 'BTC',
    last: 'lever-last',
    lang: 'de',
    theme: 'dark',
    title: 'lever.title',
    boxes: ['.navbar', '.lever-book', '.chip-row', '.lever-symbol-name', '[data-testid="lever-last"]'],
    drawn: '[data-testid="symbol-BTC"]',
  },
  {
    name: 'Option',
    path: '/pages/option/detail?symbol=ETH',
    symbol: 'ETH',
    last: 'option-last',
    lang: 'en',
    theme: 'light',
    title: 'options.title',
    boxes: ['.navbar', '.option-book', '.chip-row', '.option-symbol-name', '[data-testid="option-last"]'],
    drawn: '[data-testid="symbol-ETH"]',
  },
  {
    name: 'Spot',
    path: '/pages/trade/index?symbol=SOL',
    symbol: 'SOL',
    last: 'spot-last',
    lang: 'de',
    theme: 'dark',
    title: 'spot.title',
    boxes: ['.navbar', '.spot-pair-button', '[data-testid="spot-last"]', '.spot-chart-link'],
    drawn: '.spot-risk',
  },
];

/**
 * Counts the moments the price cell was gone from the page after it had shown (checked after every batch of DOM
 * changes: React's replacing the first paint within one task, which no frame can show, is not counted).
 */
const PRICE_GAPS = (cell: string) => {
  const w = window as unknown as { priceGaps: number };
  w.priceGaps = 0;
  let seen = false;
  new MutationObserver(() => {
    if (document.querySelector(cell)) seen = true;
    else if (seen) w.priceGaps++;
  }).observe(document, { childList: true, subtree: true });
};

describe("a trading tab's price header at first paint", () => {
  for (const tab of TABS) {
    it(`draws the ${tab.name} tab's price from the snapshot before any script, and the app keeps it in place (${tab.lang}, ${tab.theme})`, async () => {
      const { page } = browser;
      await loggedInUser(server, page, `first-paint-${tab.name.toLowerCase()}@example.com`, {
        lang: tab.lang,
        theme: tab.theme,
      });
      const cell = `[data-testid="${tab.last}"]`;
      await page.addInitScript(PRICE_GAPS, cell);
      // No live price may change the figure between the two pictures: both are the snapshot's. No service worker
      // answers the page from its copy (which carries no snapshot).
      await withoutLivePrices(page);
      await page.route('**/sw.js', (route) => route.abort());
      // The page's clock stands still: however slowly a busy machine gets through the steps below, the snapshot stays
      // within its staleness limit for both pictures (its limit has a test of its own).
      await page.clock.setFixedTime(Date.now());
      const release = await holdRequests(page, '**/assets/*.js');
      await page.goto(`${server.url}${tab.path}`, { waitUntil: 'commit' });

      const early = page.locator(`[data-first-paint] ${cell}`);
      await expect.poll(() => early.count(), { timeout: 30_000 }).toBe(1);
      const snapshot = await carriedSnapshot(page);
      const quote = snapshot.quotes.find((q) => q.symbol === tab.symbol);
      const scale = snapshot.instruments.find((i) => i.symbol === tab.symbol)?.price_scale;
      if (!quote || scale === undefined) throw new Error(`the snapshot holds no ${tab.symbol}`);
      const price = formatPrice(quote.last, tab.lang, scale);
      expect(await early.textContent()).toBe(price);
      expect(await page.locator('[data-first-paint] .navbar-title').textContent()).toBe(text(tab.lang, tab.title));
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(tab.theme);
      const before = await boxesOf(page, tab.boxes);
      await earlyShot(page, `first-paint-tab-${tab.name.toLowerCase()}-early`);

      release();
      await expect.poll(() => page.locator('[data-first-paint]').count(), { timeout: 30_000 }).toBe(0);
      // The app's first render: the same header, the same price, on the same boxes.
      expect(await page.locator(cell).textContent()).toBe(price);
      expectSameBoxes(before, await boxesOf(page, tab.boxes));
      // And once the tab's terms have come (its chips, its ticket), still where it was.
      await page.locator(tab.drawn).waitFor({ timeout: 30_000 });
      expect(await page.locator(cell).textContent()).toBe(price);
      expectSameBoxes(before, await boxesOf(page, tab.boxes));
      expect(await page.evaluate(() => (window as unknown as { priceGaps: number }).priceGaps)).toBe(0);
      await shot(page, `first-paint-tab-${tab.name.toLowerCase()}-app`);
    });
  }

  it("draws the header from the service worker's copy, and the price once the snapshot it asks for is answered", async () => {
    const { page } = browser;
    await loggedInUser(server, page, 'first-paint-tab-copy@example.com', { lang: 'en', theme: 'light' });
    await page.addInitScript(PRICE_GAPS, '[data-testid="lever-last"]');
    await withoutLivePrices(page);
    await page.route('**/sw.js', (route) => route.abort());
    // The page as the service worker keeps it: the build's index.html, which carries no snapshot.
    const cached = await (await fetch(`${server.url}/index.html`)).text();
    const tab = `${server.url}/pages/lever/index?symbol=BTC`;
    await page.route(tab, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: cached }));
    await page.clock.setFixedTime(Date.now());
    const answer = await holdRequests(page, '**/api/market/snapshot');
    const release = await holdRequests(page, '**/assets/*.js');
    await page.goto(tab, { waitUntil: 'commit' });

    // Before the snapshot: the header, with a dash where its price will stand.
    const early = page.locator('[data-first-paint] [data-testid="lever-last"]');
    await expect.poll(() => early.textContent(), { timeout: 30_000 }).toBe('–');
    const boxes = ['.navbar', '.lever-book', '.chip-row', '.lever-symbol-name', '[data-testid="lever-last"]'];
    const before = await boxesOf(page, ['.navbar', '.lever-book', '.chip-row', '.lever-symbol-name']);
    answer();
    await expect.poll(() => early.textContent(), { timeout: 30_000 }).toMatch(/\d/);
    const snapshot = await carriedSnapshot(page);
    const quote = snapshot.quotes.find((q) => q.symbol === 'BTC');
    const scale = snapshot.instruments.find((i) => i.symbol === 'BTC')?.price_scale;
    if (!quote || scale === undefined) throw new Error('the snapshot holds no BTC');
    const price = formatPrice(quote.last, 'en', scale);
    expect(await early.textContent()).toBe(price);
    const priced = await boxesOf(page, boxes);
    expectSameBoxes(before, priced);
    await earlyShot(page, 'first-paint-tab-copy-early');

    release();
    await expect.poll(() => page.locator('[data-first-paint]').count(), { timeout: 30_000 }).toBe(0);
    expect(await page.getByTestId('lever-last').textContent()).toBe(price);
    expectSameBoxes(priced, await boxesOf(page, boxes));
    expect(await page.evaluate(() => (window as unknown as { priceGaps: number }).priceGaps)).toBe(0);
  });

  it('takes the early price down when its snapshot turns stale before the app has taken over', async () => {
    const { page } = browser;
    await loggedInUser(server, page, 'first-paint-tab-stale@example.com', { lang: 'en' });
    await withoutLivePrices(page);
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto(`${server.url}/pages/lever/index?symbol=BTC`);
    const early = page.locator('[data-first-paint] [data-testid="lever-last"]');
    await early.waitFor({ timeout: 30_000 });
    // At the limit (5 s from the snapshot's newest price), a dash and no change, as the app's first render would
    // have it then: a snapshot is never shown as current once it is not.
    await expect.poll(() => early.textContent(), { timeout: 30_000 }).toBe('–');
    expect(await page.locator('[data-first-paint] .change').count()).toBe(0);
    await shot(page, 'first-paint-tab-stale');
  });

  it('draws no header for a guest, nor for a book tab that names no instrument', async () => {
    const { page } = browser;
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto(`${server.url}/pages/lever/index?symbol=BTC`);
    expect(await page.locator('#root').innerHTML()).toBe('');
    await page.evaluate(() =>
      localStorage.setItem('tw.app', JSON.stringify({ token: 'a-session-token', user: { id: 1 } })),
    );
    await page.goto(`${server.url}/pages/option/detail`);
    expect(await page.locator('#root').innerHTML()).toBe('');
    // The same member on a tab that names one gets it: the two above were left out for a guest and no instrument.
    await page.goto(`${server.url}/pages/option/detail?symbol=BTC`);
    expect(await page.locator('[data-first-paint] [data-testid="option-last"]').count()).toBe(1);
  });
});
