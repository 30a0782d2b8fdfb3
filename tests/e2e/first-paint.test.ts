import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatPrice } from '../../src/lib/format';
import {
  boxesOf,
  carriedSnapshot as carried,
  expectSameBoxes,
  holdRequests as hold,
  withoutLivePrices as withoutLive,
} from './first-paint-page';
import { type Browser, openBrowser, type RunningServer, shot, startServer } from './harness';
import { text } from './locale';
import { loggedInUser } from './users';

/**
 * The first visit's first paint (issue 15 cold start, scripts/first-paint.ts and scripts/precompress.ts): index.html
 * draws a guest's home hero before any script runs, in the stored language and theme, and the app then draws the same
 * boxes (nothing moves, and the largest paint stays the early one); members and other routes get no such picture;
 * the server sends the build's compressed copies to a browser that takes them.
 */
let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

beforeEach(async () => {
  browser = await openBrowser();
  page = browser.page;
});

afterEach(async (context) => {
  await browser?.close({ skipA11y: context.task.result?.state === 'fail' });
});

/** The boxes the first paint and the app must agree on. */
const BOXES = [
  '.navbar',
  '.navbar-title',
  '.navbar .icon-btn >> nth=0',
  '.hero',
  '.hero-kicker',
  '.hero-title',
  '.hero-text',
  '.hero .btn-primary',
  '.hero .btn-secondary',
];

const boxes = (selectors: readonly string[] = BOXES) => boxesOf(page, selectors);
const withoutLivePrices = () => withoutLive(page);
const holdRequests = (url: string) => hold(page, url);
const carriedSnapshot = () => carried(page);

/** Storage as a returning guest (language, theme) or a member (a session token) left it, before any page script. */
async function seedStorage(values: { lang?: string; theme?: 'light'; token?: string }): Promise<void> {
  await page.addInitScript((v) => {
    if (v.lang) localStorage.setItem('lang', v.lang);
    const app: Record<string, unknown> = {};
    if (v.theme) app.theme = v.theme;
    if (v.token) app.token = v.token;
    if (Object.keys(app).length > 0) localStorage.setItem('tw.app', JSON.stringify(app));
  }, values);
}

/**
 * Counts the moments the hero's title was gone from the page after it had shown (checked after every batch of DOM
 * changes, so a removal and a re-insertion within one task, which no frame can show, is not counted).
 */
async function countHeroGaps(): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { heroGaps: number };
    w.heroGaps = 0;
    let seen = false;
    new MutationObserver(() => {
      if (document.querySelector('.hero-title')) seen = true;
      else if (seen) w.heroGaps++;
    }).observe(document, { childList: true, subtree: true });
  });
}

/** No script file loads: what index.html paints by itself. */
const withoutScripts = () => page.route('**/assets/*.js', (route) => route.abort());

describe('the first paint', () => {
  for (const { lang, theme } of [
    { lang: 'de', theme: undefined },
    { lang: 'en', theme: 'light' },
  ] as const) {
    it(`draws the guest's hero before any script, where the app then draws it (${lang}, ${theme ?? 'dark'})`, async () => {
      await seedStorage({ lang, ...(theme ? { theme } : {}) });
      await countHeroGaps();
      await withoutScripts();
      await page.goto(`${server.url}/`);
      const early = page.locator('[data-first-paint] .hero-title');
      await expect.poll(() => early.textContent()).toBe(text(lang, 'home.title'));
      expect(await page.locator('[data-first-paint] .btn-primary').textContent()).toBe(text(lang, 'auth.login'));
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme ?? 'dark');
      const before = await boxes();
      await shot(page, `first-paint-${lang}-early`);

      await page.unroute('**/assets/*.js');
      await page.reload();
      // The first paint draws market rows too: the app has taken over once its own page stands in their place.
      await expect.poll(() => page.locator('[data-first-paint]').count(), { timeout: 30_000 }).toBe(0);
      await expect.poll(() => page.locator('.quote-row').count(), { timeout: 30_000 }).toBeGreaterThan(0);
      // React took over without a frame lacking the hero (it draws the page on its first render).
      expect(await page.evaluate(() => (window as unknown as { heroGaps: number }).heroGaps)).toBe(0);
      expect(await page.locator('.hero-title').textContent()).toBe(text(lang, 'home.title'));
      expectSameBoxes(before, await boxes());
      await shot(page, `first-paint-${lang}-app`);
    });
  }

  it("leaves a member's home and the routes without a price header to the app", async () => {
    await withoutScripts();
    await page.goto(`${server.url}/pages/user/login/login`);
    expect(await page.locator('#root').innerHTML()).toBe('');
    await page.evaluate(() =>
      localStorage.setItem('tw.app', JSON.stringify({ token: 'a-session-token', user: { id: 1 } })),
    );
    await page.goto(`${server.url}/`);
    expect(await page.locator('#root').innerHTML()).toBe('');
    // The same browser as a guest on the home route gets it: the two above were left out for being another route
    // and a member.
    await page.evaluate(() => localStorage.removeItem('tw.app'));
    await page.goto(`${server.url}/pages/index/index`);
    expect(await page.locator('[data-first-paint]').count()).toBe(1);
  });
});

/** Serves home as the service worker keeps it: the build's index.html, which carries no snapshot. Returns it. */
async function serveCachedCopy(): Promise<string> {
  const cached = await (await fetch(`${server.url}/index.html`)).text();
  await page.route(`${server.url}/`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: cached }));
  return cached;
}

describe('prices at first paint (issue 27)', () => {
  for (const lang of ['de', 'en'] as const) {
    it(`shows the market list with the snapshot's prices on the app's first render, no socket needed (${lang})`, async () => {
      await seedStorage({ lang });
      await withoutLivePrices();
      await page.goto(`${server.url}/`);
      const btc = page.locator('.quote-row[data-symbol="BTC"] [data-testid="last"]');
      await expect.poll(() => btc.textContent(), { timeout: 30_000 }).toMatch(/\d/);
      const snapshot = await carriedSnapshot();
      const quote = snapshot.quotes.find((q) => q.symbol === 'BTC');
      const info = snapshot.instruments.find((i) => i.symbol === 'BTC');
      if (!quote || !info) throw new Error('the snapshot holds no BTC');
      expect(await btc.textContent()).toBe(formatPrice(quote.last, lang, info.price_scale));
      // Every coin of the snapshot has its row, in the instruments' order, each with its quote currency.
      expect(await page.locator('.quote-row').count()).toBe(snapshot.quotes.length);
      expect(await page.locator('.quote-row[data-symbol="USDT"] small').textContent()).toBe('/USD');
      await shot(page, `first-paint-prices-${lang}`);
    });
  }

  it('draws the list from the snapshot before any script, and the app takes it over on the same boxes', async () => {
    await seedStorage({ lang: 'de' });
    // No live price may change a figure between the two pictures: both are the snapshot's.
    await withoutLivePrices();
    const release = await holdRequests('**/assets/*.js');
    await page.goto(`${server.url}/`, { waitUntil: 'commit' });
    const early = page.locator('[data-first-paint] .quote-row');
    await expect.poll(() => early.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const snapshot = await carriedSnapshot();
    expect(await early.count()).toBe(snapshot.quotes.length);
    const btc = snapshot.quotes.find((q) => q.symbol === 'BTC');
    const scale = snapshot.instruments.find((i) => i.symbol === 'BTC')?.price_scale;
    if (!btc || scale === undefined) throw new Error('the snapshot holds no BTC');
    const last = page.locator('.quote-row[data-symbol="BTC"] [data-testid="last"]');
    expect(await last.textContent()).toBe(formatPrice(btc.last, 'de', scale));
    const rows = (n: number) => `.quote-row >> nth=${n}`;
    const MARKET = ['.market-board .section-title', '.market-board .segmented', '.search-box', '.quotes-head', rows(0)];
    const before = await boxes([...MARKET, rows(snapshot.quotes.length - 1)]);
    const texts = await page.locator('.quote-row').allTextContents();

    release();
    await expect.poll(() => page.locator('[data-first-paint]').count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => page.locator('.quote-row').count()).toBe(snapshot.quotes.length);
    expect(await page.locator('.quote-row').allTextContents()).toEqual(texts);
    expectSameBoxes(before, await boxes([...MARKET, rows(snapshot.quotes.length - 1)]));
    await shot(page, 'first-paint-market-app');
  });

  it("asks for a snapshot when the page came without one (the service worker's copy) and draws the list from it", async () => {
    await seedStorage({ lang: 'en' });
    await withoutLivePrices();
    // The page as the service worker keeps it: the build's index.html, which carries no snapshot.
    expect(await serveCachedCopy()).not.toContain('<script id="tw-market"');
    const release = await holdRequests('**/assets/*.js');
    const asked = page.waitForRequest('**/api/market/snapshot');
    await page.goto(`${server.url}/`, { waitUntil: 'commit' });
    await asked;
    // Drawn before any script file ran, from the answer the page put where the server would have written it.
    const early = page.locator('[data-first-paint] .quote-row');
    await expect.poll(() => early.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const snapshot = await carriedSnapshot();
    expect(await early.count()).toBe(snapshot.quotes.length);
    expect(Number(await page.locator('#tw-market').getAttribute('data-arrived-at'))).toBeGreaterThan(0);
    const btc = snapshot.quotes.find((q) => q.symbol === 'BTC');
    const scale = snapshot.instruments.find((i) => i.symbol === 'BTC')?.price_scale;
    if (!btc || scale === undefined) throw new Error('the snapshot holds no BTC');
    const last = page.locator('.quote-row[data-symbol="BTC"] [data-testid="last"]');
    expect(await last.textContent()).toBe(formatPrice(btc.last, 'en', scale));
    // The app starts from the same snapshot: its rows and figures, with no live price to move them.
    const texts = await page.locator('.quote-row').allTextContents();
    release();
    await expect.poll(() => page.locator('[data-first-paint]').count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => page.locator('.quote-row').count()).toBe(snapshot.quotes.length);
    expect(await page.locator('.quote-row').allTextContents()).toEqual(texts);
    await shot(page, 'first-paint-market-cached-copy');
  });

  it("draws no list from a snapshot answered after the app looked for one: no prices, then the app's loading list", async () => {
    await seedStorage({ lang: 'de' });
    await withoutLivePrices();
    await serveCachedCopy();
    // Counts the first paint's lists as they are drawn.
    await page.addInitScript(() => {
      const w = window as unknown as { firstPaintLists: number };
      w.firstPaintLists = 0;
      new MutationObserver((changes) => {
        for (const change of changes) {
          for (const node of change.addedNodes) {
            if (node instanceof Element && node.matches('[data-first-paint] .market-board')) w.firstPaintLists++;
          }
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const answer = await holdRequests('**/api/market/snapshot');
    await page.goto(`${server.url}/`, { waitUntil: 'commit' });
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-tw-snapshot-read'), undefined, {
      timeout: 30_000,
    });
    answer();
    await page.waitForResponse('**/api/market/snapshot');
    await page.locator('.market-board .empty[aria-busy="true"]').waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { firstPaintLists: number }).firstPaintLists)).toBe(0);
    expect(await page.locator('.quote-row').count()).toBe(0);
  });

  it('never shows a snapshot older than the staleness limit: the list waits for live prices', async () => {
    await withoutLivePrices();
    // The same page, as if it had waited ten seconds in the server before leaving.
    await page.route(`${server.url}/`, async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/"served_at":(\d+)/, (_, at: string) => {
        return `"served_at":${Number(at) + 10_000}`;
      });
      // The body is decoded already: sent on without the encoding it came in.
      const { 'content-encoding': _, ...headers } = response.headers();
      await route.fulfill({ response, body, headers });
    });
    await page.goto(`${server.url}/`);
    // The list is drawn (its loading state, where a current snapshot's rows would be), without a price.
    await page.locator('.market-board .empty[aria-busy="true"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('.quote-row').count()).toBe(0);
  });

  /** The three trading tabs' price headers, each opened as the first page. */
  const TABS = [
    { path: '/pages/trade/index?symbol=BTC', last: 'spot-last' },
    { path: '/pages/option/detail?symbol=BTC', last: 'option-last' },
    { path: '/pages/lever/index?symbol=BTC', last: 'lever-last' },
  ] as const;

  /** The snapshot's BTC price as the tabs format it. */
  async function snapshotBtc(lang: string): Promise<string> {
    const snapshot = await carriedSnapshot();
    const quote = snapshot.quotes.find((q) => q.symbol === 'BTC');
    const scale = snapshot.instruments.find((i) => i.symbol === 'BTC')?.price_scale;
    if (!quote || scale === undefined) throw new Error('the snapshot holds no BTC');
    return formatPrice(quote.last, lang, scale);
  }

  it("starts a trading tab's price header from the snapshot when the tab is the first page opened (de)", async () => {
    await loggedInUser(server, page, 'first-paint-tabs@example.com', { lang: 'de' });
    await withoutLivePrices();
    // Each tab as the server sends it: no service worker registers to answer the next one from its cached copy
    // (that copy asks for its snapshot, a path of its own test below).
    await page.route('**/sw.js', (route) => route.abort());
    for (const tab of TABS) {
      await page.goto(`${server.url}${tab.path}`);
      const last = page.getByTestId(tab.last);
      await expect.poll(() => last.textContent(), { timeout: 30_000 }).toMatch(/\d/);
      expect(await last.textContent(), tab.path).toBe(await snapshotBtc('de'));
    }
    await shot(page, 'first-paint-lever-tab');
    // With no live price to follow, the snapshot's price is marked stale once it is older than the limit.
    await expect.poll(() => page.getByTestId('stale').count(), { timeout: 30_000 }).toBe(1);
  });

  it("asks for a snapshot on a tab loaded from the service worker's copy, and starts its price header from it", async () => {
    await loggedInUser(server, page, 'first-paint-tab-cached@example.com', { lang: 'en', theme: 'light' });
    await withoutLivePrices();
    const cached = await (await fetch(`${server.url}/index.html`)).text();
    const tab = `${server.url}/pages/lever/index?symbol=BTC`;
    await page.route(tab, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: cached }));
    const asked = page.waitForRequest('**/api/market/snapshot');
    await page.goto(tab);
    await asked;
    const last = page.getByTestId('lever-last');
    await expect.poll(() => last.textContent(), { timeout: 30_000 }).toMatch(/\d/);
    expect(Number(await page.locator('#tw-market').getAttribute('data-arrived-at'))).toBeGreaterThan(0);
    expect(await last.textContent()).toBe(await snapshotBtc('en'));
    await shot(page, 'first-paint-lever-tab-cached-copy');
  });

  it("asks for the opened page's own chunks at once, beside the shell, not after it has run", async () => {
    await loggedInUser(server, page, 'first-paint-preload@example.com', { lang: 'de' });
    const html = await (await fetch(`${server.url}/pages/lever/index`)).text();
    const shell = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
    if (!shell) throw new Error('index.html names no entry script');
    // The shell is held: whatever the page asks for meanwhile, the head script asked for.
    const release = await holdRequests(`${server.url}${shell}`);
    const pageChunk = page.waitForRequest(/\/assets\/LeverTrade-[\w-]+\.js$/, { timeout: 30_000 });
    const pageStyle = page.waitForRequest(/\/assets\/lever-[\w-]+\.css$/, { timeout: 30_000 });
    await page.goto(`${server.url}/pages/lever/index?symbol=BTC`, { waitUntil: 'commit' });
    await Promise.all([pageChunk, pageStyle]);
    release();
    await page.getByTestId('lever-last').waitFor({ timeout: 30_000 });
  });

  it('is in every route the server answers with the app, and not in a copy the service worker could keep', async () => {
    const home = await (await fetch(`${server.url}/`)).text();
    expect(home).toContain('<script id="tw-market" type="application/json">');
    // Any route may be the first page opened: the trading tabs' price header starts from it too.
    const route = await (await fetch(`${server.url}/pages/trade/index`)).text();
    expect(route).toContain('<script id="tw-market" type="application/json">');
    const file = await (await fetch(`${server.url}/index.html`)).text();
    expect(file).not.toContain('<script id="tw-market"');
  });
});

describe('the build on the wire', () => {
  it('is sent compressed to a browser that takes it, and as it is to one that does not', async () => {
    const index = await fetch(`${server.url}/`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(index.headers.get('content-encoding')).toBe('br');
    expect(index.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    const html = await index.text();
    const shell = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
    if (!shell) throw new Error('index.html names no entry script');
    const gzip = await fetch(`${server.url}${shell}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(gzip.headers.get('cache-control')).toContain('immutable');
    const plain = await fetch(`${server.url}${shell}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    // Both decode to the same script.
    expect(await gzip.text()).toBe(await plain.text());
    // A client route falls back to index.html, compressed too.
    const route = await fetch(`${server.url}/pages/trade/index`, { headers: { 'accept-encoding': 'br' } });
    expect(route.headers.get('content-encoding')).toBe('br');
    // The same page, but for the market snapshot of its moment.
    const withoutSnapshot = (page: string) => page.replace(/<script id="tw-market"[^<]*<\/script>/, '');
    expect(withoutSnapshot(await route.text())).toBe(withoutSnapshot(html));
  });
});
