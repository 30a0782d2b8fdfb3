import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TIMEFRAMES } from '../../protocol/market';
import { appTookOver, browserPerTest, type InProcessServer, shot, startServerInProcess } from './harness';
import { text } from './locale';

/**
 * Live market data in a real Chromium at 375x812 against the real server (in this process, so the test can stop
 * the feed and drop sockets): the home list moves without a reload, every timeframe draws candles, a stopped feed
 * is marked stale within the limit and clears when it resumes, and a dropped socket reconnects.
 */
let server: InProcessServer;
let page: Page;

browserPerTest(
  startServerInProcess,
  (s) => {
    server = s;
  },
  async (b) => {
    page = b.page;
    await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  },
);

const lastOf = (symbol: string) => page.locator(`.quote-row[data-symbol="${symbol}"] [data-testid="last"]`);

/** Waits until BTC's shown price differs from `before` (a live update reached the page). */
async function priceMovesFrom(before: string): Promise<void> {
  await page.waitForFunction(
    (b) => {
      const el = document.querySelector('.quote-row[data-symbol="BTC"] [data-testid="last"]');
      return el !== null && el.textContent !== b;
    },
    before,
    { timeout: 15_000 },
  );
}

describe('live market data in the browser', () => {
  it('home: the market list updates without a reload; US stocks are one tap away', async () => {
    await page.goto(`${server.url}/`);
    await appTookOver(page);
    await expect.poll(() => page.locator('.quote-row').count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(14);
    const navigations: string[] = [];
    page.on('framenavigated', (f) => navigations.push(f.url()));
    await priceMovesFrom((await lastOf('BTC').textContent()) ?? '');
    expect(navigations).toEqual([]);
    await shot(page, 'market-home');

    await page.getByRole('tab', { name: text('en', 'market.tabs.stocks') }).click();
    await expect.poll(() => page.locator('.quote-row[data-symbol="AAPL"]').count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole('searchbox').fill('nvid');
    await expect.poll(() => page.locator('.quote-row').count()).toBe(1);
    await page.locator('.quote-row[data-symbol="NVDA"] a').click();
    await page.waitForURL((u) => u.pathname === '/pages/trade/kline' && u.search.includes('NVDA'));
    await expect
      .poll(async () => Number(await page.getByTestId('chart').getAttribute('data-bars')), { timeout: 15_000 })
      .toBeGreaterThan(0);
  });

  it('kline: candles in every timeframe and the time-share line', async () => {
    // A chart that throws takes the page down; name the error rather than time out on a vanished tab.
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/pages/trade/kline?symbol=ETH`);
    const chart = page.getByTestId('chart');
    // Each timeframe starts a new chart without data-bars, so the poll below waits for that timeframe's own bars.
    for (const period of ['timeshare', ...TIMEFRAMES]) {
      await page.getByRole('tab', { name: text('en', `kline.periods.${period}`), exact: true }).click();
      await expect.poll(() => chart.getAttribute('data-mode')).toBe(period === 'timeshare' ? 'line' : 'candles');
      await expect
        .poll(async () => Number(await chart.getAttribute('data-bars')), { timeout: 15_000 })
        .toBeGreaterThan(0);
      // The canvas really has pixels: lightweight-charts drew into it.
      expect(await page.locator('[data-testid="chart"] canvas').count()).toBeGreaterThan(0);
    }
    // Back to a timeframe seen before: its chart starts over as well.
    await page.getByRole('tab', { name: text('en', 'kline.periods.1min'), exact: true }).click();
    await expect
      .poll(async () => Number(await chart.getAttribute('data-bars')), { timeout: 15_000 })
      .toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await shot(page, 'market-kline');
  });

  it('a stopped feed is marked stale within the limit; resuming clears it', async () => {
    await page.goto(`${server.url}/`);
    await appTookOver(page);
    await expect.poll(() => page.locator('.quote-row').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('stale').count()).toBe(0);
    server.feed.stop();
    try {
      const stoppedAt = Date.now();
      await page.getByTestId('stale').waitFor({ timeout: 10_000 });
      // The limit is 5 s; checks run twice a second, the last heartbeat may have come up to 2 s before the stop.
      expect(Date.now() - stoppedAt).toBeLessThan(8_000);
      await shot(page, 'market-stale');
    } finally {
      server.feed.start();
    }
    await page.getByTestId('stale').waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('a dropped connection reconnects and prices flow again', async () => {
    await page.goto(`${server.url}/`);
    await appTookOver(page);
    await expect.poll(() => page.locator('.quote-row').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => server.app.io.engine.clientsCount).toBe(1);
    // The reconnect is seen as a new connection event: the client may come back before a poll could see zero.
    let reconnects = 0;
    server.app.io.on('connection', () => {
      reconnects++;
    });
    server.app.io.disconnectSockets(true);
    await expect.poll(() => reconnects, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(() => server.app.io.engine.clientsCount, { timeout: 15_000 }).toBe(1);
    await priceMovesFrom((await lastOf('BTC').textContent()) ?? '');
    expect(await page.getByTestId('stale').count()).toBe(0);
  });
});
