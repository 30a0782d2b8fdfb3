import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { changePercentText } from '../../core/decimal-change';
import type { Candle, InstrumentInfo } from '../../protocol/market';
import { formatVolumeOf } from '../../src/features/market/live/volume';
import { formatChange, formatPrice } from '../../src/lib/format';
import { browserPerTest, type InProcessServer, shot, startServerInProcess } from './harness';
import { text } from './locale';
import { loggedInUser } from './users';

/**
 * The kline page as a trader reads it, in a real Chromium at 375x812 against the real server, in English/light and
 * German/dark: indicators chosen in the menu (MA over the price, volume and RSI in panes of their own) and still on
 * after a reload, the readout following the crosshair to the hovered bar's own figures, full screen and back, and Buy
 * opening the spot ticket on buying that coin. axe checks every state (the harness).
 */
let server: InProcessServer;
let page: Page;

browserPerTest(
  () => startServerInProcess(),
  (s) => {
    server = s;
  },
  (b) => {
    page = b.page;
  },
);

async function getApi<T>(path: string): Promise<T> {
  const res = await fetch(`${server.url}/api/${path}`, { headers: { lang: 'en' } });
  return ((await res.json()) as { data: T }).data;
}

const chart = () => page.getByTestId('chart');
const readout = () => page.getByTestId('readout');

describe('the kline chart a trader reads', () => {
  for (const [lang, theme] of [
    ['en', 'light'],
    ['de', 'dark'],
  ] as const) {
    it(`indicators stay on, the readout follows the crosshair, Buy opens the ticket (${lang}, ${theme})`, async () => {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await loggedInUser(server, page, `kline-${lang}@example.com`, { lang, theme });
      await page.goto(`${server.url}/pages/trade/kline?symbol=BTC`);
      await expect
        .poll(async () => Number(await chart().getAttribute('data-bars')), { timeout: 15_000 })
        .toBeGreaterThan(0);
      await expect.poll(() => chart().getAttribute('data-panes')).toBe('1');

      // The menu: MA over the price, volume and RSI each in a pane below it.
      await page.getByRole('button', { name: text(lang, 'kline.indicators') }).click();
      for (const name of ['MA 7, 25', 'VOL', 'RSI 14']) await page.getByRole('checkbox', { name }).check();
      await expect.poll(() => chart().getAttribute('data-panes'), { timeout: 10_000 }).toBe('3');
      expect(await chart().getAttribute('data-indicators')).toBe('ma vol rsi');
      await shot(page, `kline-menu-${lang}-${theme}`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('checkbox', { name: 'VOL' }).isVisible()).resolves.toBe(false);
      await shot(page, `kline-indicators-${lang}-${theme}`);

      // Remembered: a reload draws the same studies, and the menu shows them checked.
      await page.reload();
      await expect
        .poll(async () => Number(await chart().getAttribute('data-bars')), { timeout: 15_000 })
        .toBeGreaterThan(0);
      await expect.poll(() => chart().getAttribute('data-panes'), { timeout: 10_000 }).toBe('3');
      expect(await chart().getAttribute('data-indicators')).toBe('ma vol rsi');
      await page.getByRole('button', { name: text(lang, 'kline.indicators') }).click();
      expect(await page.getByRole('checkbox', { name: 'MA 7, 25' }).isChecked()).toBe(true);
      expect(await page.getByRole('checkbox', { name: 'EMA 12, 26' }).isChecked()).toBe(false);
      await page.keyboard.press('Escape');

      // The readout shows the newest bar, then the bar under the crosshair, from that candle's exact strings.
      const newest = Number(await readout().getAttribute('data-t'));
      expect(newest).toBeGreaterThan(0);
      const box = await chart().boundingBox();
      if (!box) throw new Error('the chart has no box');
      await page.mouse.move(box.x + box.width * 0.3, box.y + 80);
      await expect.poll(async () => Number(await readout().getAttribute('data-t'))).toBeLessThan(newest);
      const hovered = Number(await readout().getAttribute('data-t'));
      const info = (await getApi<InstrumentInfo[]>('coin/list')).find((i) => i.symbol === 'BTC');
      const { candles } = await getApi<{ candles: Candle[] }>(
        'currency/new_timeshar?symbol=BTC&period=1min&limit=1000',
      );
      const bar = candles.find((c) => c.t === hovered);
      if (!info || !bar) throw new Error(`no BTC bar at ${hovered}`);
      const figure = (name: string) => page.getByTestId(`readout-${name}`).textContent();
      expect(await figure('open')).toBe(formatPrice(bar.o, lang, info.price_scale));
      expect(await figure('high')).toBe(formatPrice(bar.h, lang, info.price_scale));
      expect(await figure('low')).toBe(formatPrice(bar.l, lang, info.price_scale));
      expect(await figure('close')).toBe(formatPrice(bar.c, lang, info.price_scale));
      expect(await figure('change')).toBe(formatChange(changePercentText(bar.o, bar.c, 2), lang));
      expect(await figure('volume')).toBe(formatVolumeOf(bar.v, 'BTC', lang));
      // The 24 h volume above the chart carries its unit as well (the one number rule).
      expect(await page.getByTestId('stat-volume').textContent()).toMatch(/\d\u00a0BTC$/);
      // One line of label-figure pairs that wrap as units: no figure is broken across lines.
      for (const name of ['open', 'high', 'low', 'close', 'change', 'volume']) {
        const lines = await page
          .getByTestId(`readout-${name}`)
          .evaluate((el) =>
            Math.round(el.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(el).lineHeight)),
          );
        expect(lines, name).toBe(1);
      }
      await shot(page, `kline-readout-${lang}-${theme}`);

      // Full screen: the chart takes the whole screen and back.
      const before = await chart().boundingBox();
      await page.getByRole('button', { name: text(lang, 'kline.fullScreen') }).click();
      await expect.poll(async () => (await chart().boundingBox())?.height ?? 0).toBeGreaterThan(before?.height ?? 0);
      await expect.poll(async () => (await page.getByTestId('chart-area').boundingBox())?.height).toBe(812);
      await shot(page, `kline-fullscreen-${lang}-${theme}`);
      await page.getByRole('button', { name: text(lang, 'kline.exitFullScreen') }).click();
      await expect.poll(async () => (await chart().boundingBox())?.height).toBe(before?.height);

      // Buy opens the spot ticket for BTC on buying.
      await page.getByRole('link', { name: text(lang, 'kline.buyCoin').replace('{{symbol}}', 'BTC') }).click();
      await page.waitForURL((u) => u.pathname === '/pages/trade/index' && u.searchParams.get('side') === 'buy');
      const side = (key: string) =>
        page.getByTestId('ticket').getByRole('button', { name: text(lang, key), exact: true });
      await expect.poll(() => side('spot.buy').getAttribute('aria-pressed'), { timeout: 15_000 }).toBe('true');
      expect(await side('spot.sell').getAttribute('aria-pressed')).toBe('false');
      expect(new URL(page.url()).searchParams.get('symbol')).toBe('BTC');

      // And Sell on selling.
      await page.goBack();
      await page.getByRole('link', { name: text(lang, 'kline.sellCoin').replace('{{symbol}}', 'BTC') }).click();
      await page.waitForURL((u) => u.pathname === '/pages/trade/index' && u.searchParams.get('side') === 'sell');
      await expect.poll(() => side('spot.sell').getAttribute('aria-pressed'), { timeout: 15_000 }).toBe('true');
      expect(errors).toEqual([]);
    }, 150_000);
  }

  it('fits a 320 px phone in German with every indicator on', async () => {
    await loggedInUser(server, page, 'kline-narrow@example.com', { lang: 'de' });
    await page.addInitScript(() => localStorage.setItem('tw.chartIndicators', 'ma,ema,boll,vol,macd,rsi'));
    await page.setViewportSize({ width: 320, height: 700 });
    await page.goto(`${server.url}/pages/trade/kline?symbol=DOGE`);
    await expect.poll(() => chart().getAttribute('data-panes'), { timeout: 15_000 }).toBe('4');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    for (const side of ['buy', 'sell']) {
      const fits = await page
        .getByTestId(`kline-${side}`)
        .evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= 320);
      expect(fits, side).toBe(true);
    }
    await shot(page, 'kline-narrow-de-dark');
  });

  it('offers no buy or sell for a US stock, which has no spot trading', async () => {
    await loggedInUser(server, page, 'kline-stock@example.com', { lang: 'en' });
    await page.goto(`${server.url}/pages/trade/kline?symbol=AAPL`);
    await expect
      .poll(async () => Number(await chart().getAttribute('data-bars')), { timeout: 15_000 })
      .toBeGreaterThan(0);
    expect(await page.getByTestId('readout-close').count()).toBe(1);
    expect(await page.getByTestId('kline-buy').count()).toBe(0);
    expect(await page.getByTestId('kline-sell').count()).toBe(0);
  });
});
