import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { LeverPosition } from '../../protocol/lever';
import { browserPerTest, type InProcessServer, LOOKS, shot, startServerInProcess } from './harness';
import { text } from './locale';
import { getApiData, loggedInUser, postApi } from './users';

/**
 * The contracts chart against the real server (ticks every 250 ms): one-minute candles of the selected instrument
 * with the user's open position drawn on it as labelled lines (entry, liquidation price, take-profit, stop-loss),
 * which follow the position as it changes: stops saved, margin added (the liquidation price moves). The position
 * is opened and changed through the API, as another device of the same user would: the chart reads the book's live
 * controller, which hears of each change on the user's socket. The chart can be hidden, and stays so. In English on
 * the light theme and in German on the dark one, with screenshots at 375x812.
 */
let server: InProcessServer;
let page: Page;

/** A GET of the user's own data, as the app makes it (the fields in the query). */
const getApi = <T>(path: string, fields: Record<string, string>, token: string): Promise<T> =>
  getApiData<T>(server, path, fields, token);

async function post<T>(path: string, fields: Record<string, string>, token: string): Promise<T> {
  const answer = await postApi(server, path, fields, token);
  if (answer.type !== 'ok') throw new Error(`${path}: ${answer.message}`);
  return answer.data as T;
}

/** The chart's line of `kind` for position `id`: its exact price, or null while it is not drawn. */
const lineOf = (id: number, kind: string) =>
  page.getByTestId('position-lines').locator(`li[data-position="${id}"][data-kind="${kind}"]`);
const priceOf = async (id: number, kind: string) =>
  (await lineOf(id, kind).count()) === 0 ? null : await lineOf(id, kind).getAttribute('data-price');

describe('the contracts chart', () => {
  browserPerTest(
    () => startServerInProcess(),
    (s) => {
      server = s;
    },
    (b) => {
      page = b.page;
    },
  );

  for (const [lang, theme] of LOOKS) {
    it(`draws the open position's entry, liquidation, TP and SL lines and moves them (${lang}, ${theme})`, async () => {
      const session = await loggedInUser(server, page, `lever-chart-${lang}@example.com`, { lang, theme });
      await page.goto(`${server.url}/pages/lever/simulator?symbol=BTC`);
      // Candles first (history, then live); no position, no line.
      const chart = page.getByTestId('position-chart');
      await expect
        .poll(async () => Number(await chart.getAttribute('data-bars')), { timeout: 20_000 })
        .toBeGreaterThan(10);
      await expect.poll(() => page.getByTestId('practice-balance').textContent(), { timeout: 15_000 }).toMatch(/\d/);
      expect(await page.getByTestId('position-lines').locator('li').count()).toBe(0);

      // A long of 2 lots at 10x, isolated, on the practice book.
      const opened = await post<LeverPosition>(
        'lever/submit',
        {
          symbol: 'BTC',
          side: 'long',
          type: 'market',
          margin_mode: 'isolated',
          lots: '2',
          leverage: '10',
          account: 'simulator',
          request_id: `e2e-chart-${lang}`,
        },
        session.token,
      );
      const info = () => getApi<LeverPosition>('lever/info', { id: String(opened.id) }, session.token);
      await expect.poll(async () => (await info()).phase, { timeout: 20_000 }).toBe('holding');
      const held = await info();
      await expect.poll(() => priceOf(held.id, 'entry'), { timeout: 15_000 }).toBe(held.entry_price);
      await expect.poll(() => priceOf(held.id, 'liquidation'), { timeout: 15_000 }).toBe(held.Liquidation_Price);
      expect(await priceOf(held.id, 'take_profit')).toBeNull();
      expect(await priceOf(held.id, 'stop_loss')).toBeNull();
      expect(await lineOf(held.id, 'entry').textContent()).toContain(text(lang, 'lever.row.entry'));

      // Stops saved: take-profit 5% above the entry, stop-loss 3% below (the liquidation price is about 9.5% below).
      const entry = Number(held.entry_price);
      const tp = String(Math.round(entry * 1.05));
      const sl = String(Math.round(entry * 0.97));
      const stopped = await post<LeverPosition>(
        'lever/setstop',
        { id: String(held.id), take_profit: tp, stop_loss: sl },
        session.token,
      );
      await expect.poll(() => priceOf(held.id, 'take_profit'), { timeout: 15_000 }).toBe(stopped.profit_take_price);
      await expect.poll(() => priceOf(held.id, 'stop_loss'), { timeout: 15_000 }).toBe(stopped.stop_loss_price);
      expect(Number(stopped.profit_take_price)).toBe(Number(tp));
      expect(await lineOf(held.id, 'take_profit').textContent()).toContain(text(lang, 'lever.ticket.takeProfit'));

      // Margin added: the liquidation price moves down, to where the server now puts it.
      const before = Number(await priceOf(held.id, 'liquidation'));
      const added = await post<LeverPosition>(
        'lever/add_margin',
        { id: String(held.id), amount: '5', request_id: `e2e-chart-margin-${lang}` },
        session.token,
      );
      expect(Number(added.Liquidation_Price)).toBeLessThan(before);
      await expect.poll(() => priceOf(held.id, 'liquidation'), { timeout: 15_000 }).toBe(added.Liquidation_Price);
      // The entry line stays where it was.
      expect(await priceOf(held.id, 'entry')).toBe(held.entry_price);
      await shot(page, `lever-chart-${lang}-${theme}`);

      // Hidden, the chart stays hidden on this device (and the chart library is not asked for); shown again on demand.
      const toggle = page.getByTestId('lever-chart-toggle');
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await chart.count()).toBe(0);
      await page.reload();
      await expect.poll(() => toggle.getAttribute('aria-expanded'), { timeout: 15_000 }).toBe('false');
      expect(await chart.count()).toBe(0);
      await shot(page, `lever-chart-hidden-${lang}-${theme}`);
      await toggle.click();
      await expect.poll(() => priceOf(held.id, 'liquidation'), { timeout: 15_000 }).toBe(added.Liquidation_Price);
    }, 120_000);
  }
});
