import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ChainTicks, RecordedTick } from '../../protocol/price-record';
import { browserPerTest, type InProcessServer, shot, startServerInProcess } from './harness';
import { text } from './locale';
import { loggedInUser } from './users';

/**
 * The option tick chart against the real server and its price record (ticks every 250 ms, the record on): it opens
 * with the recent recorded ticks before any new tick arrives (the feed is held still while the page opens), then
 * grows with live prices; a running contract's entry line appears on it with its time left; and the settled
 * contract's detail draws the recorded ticks from its entry to its exit with both named, as the record holds them.
 * In English on the light theme and in German on the dark one, each with screenshots at 375x812.
 */
let server: InProcessServer;
let page: Page;

/** A public price-record read, as the app makes it (GET with the fields in the query). */
async function readRecord<T>(path: string, fields: Record<string, string>): Promise<T> {
  const res = await fetch(`${server.url}/api/${path}?${new URLSearchParams(fields)}`, { headers: { lang: 'en' } });
  const body = (await res.json()) as { type: string; data: T; message: string };
  if (body.type !== 'ok') throw new Error(`${path}: ${body.message}`);
  return body.data;
}

const recordedTicks = (symbol: string) => readRecord<ChainTicks>('market/chain/ticks', { symbol });

/** The chart's box, with what it draws in its attributes. */
const chart = () => page.getByTestId('tick-chart');
const attr = async (name: string) => Number(await chart().getAttribute(`data-${name}`));

const SETTLED = ['won', 'lost', 'flat'];

describe('the option tick chart', () => {
  browserPerTest(
    () => startServerInProcess({ record: true }),
    (s) => {
      server = s;
    },
    (b) => {
      page = b.page;
    },
  );

  for (const [lang, theme] of [
    ['en', 'light'],
    ['de', 'dark'],
  ] as const) {
    it(`opens with recorded ticks, draws the entry line, shows entry and exit on the detail (${lang}, ${theme})`, async () => {
      await loggedInUser(server, page, `options-chart-${lang}@example.com`, { lang, theme });

      // Enough of the record to draw: ten seconds of BTC ticks. Then the market holds still, and once its last tick is
      // recorded the page opens: whatever the chart shows before the feed starts again came from the record.
      await expect.poll(async () => (await recordedTicks('BTC')).ticks.length, { timeout: 30_000 }).toBeGreaterThan(40);
      server.feed.stop();
      let recorded: ChainTicks;
      try {
        const lastSeq = server.feed.quote('BTC')?.seq;
        await expect
          .poll(async () => (await recordedTicks('BTC')).ticks.at(-1)?.seq, { timeout: 15_000 })
          .toBe(lastSeq);
        recorded = await recordedTicks('BTC');
        await page.goto(`${server.url}/pages/option/simulator?symbol=BTC`);
        await expect.poll(() => attr('points'), { timeout: 20_000 }).toBeGreaterThan(40);
        // Every point is a recorded tick (the held quote is the newest of them): the line opened with history.
        expect(await attr('points')).toBe(recorded.ticks.length);
        expect(await attr('first-seq')).toBe(recorded.ticks[0]?.seq);
        expect(await attr('last-seq')).toBe(lastSeq);
      } finally {
        server.feed.start();
      }
      // Live prices extend it.
      const opened = await attr('last-seq');
      await expect.poll(() => attr('last-seq'), { timeout: 15_000 }).toBeGreaterThan(opened);
      expect(await page.getByTestId('chart-lines').locator('li').count()).toBe(0);

      // A 30 s contract up: its entry line appears, at its entry price, with its time left.
      await page.getByTestId('period-30').click();
      await page.getByTestId('ticket-stake').fill('10');
      const up = page.getByTestId('buy-up');
      await expect.poll(() => up.isEnabled(), { timeout: 15_000 }).toBe(true);
      await up.click();
      const status = page.getByTestId('contract-status');
      await expect.poll(() => status.getAttribute('data-phase'), { timeout: 20_000 }).toBe('running');
      const line = page.getByTestId('chart-lines').locator('li[data-kind="entry"]');
      await expect.poll(() => line.count(), { timeout: 10_000 }).toBe(1);
      const entryPrice = (await line.getAttribute('data-price')) ?? '';
      expect(entryPrice).toMatch(/^\d+(\.\d+)?$/);
      const left = Number(await line.getAttribute('data-left'));
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThanOrEqual(30);
      expect(await line.textContent()).toContain(text(lang, 'options.up'));
      // The line's time left counts down with the contract's.
      await expect
        .poll(async () => Number(await line.getAttribute('data-left')), { timeout: 10_000 })
        .toBeLessThan(left);
      await shot(page, `options-chart-running-${lang}-${theme}`);

      // Settled (with ticks every 250 ms there is an exit tick: no refund): the line goes; the detail draws the record from the entry tick to the exit tick, both named.
      await expect
        .poll(() => status.getAttribute('data-phase'), { timeout: 60_000 })
        .toSatisfy((phase: string | null) => SETTLED.includes(phase ?? ''));
      await expect.poll(() => line.count(), { timeout: 10_000 }).toBe(0);
      await page.getByTestId('status-details').click();
      const info = page.getByTestId('contract-info');
      await expect.poll(() => info.count(), { timeout: 15_000 }).toBe(1);
      expect(SETTLED).toContain(await info.getAttribute('data-state'));
      const entrySeq = Number((await page.getByTestId('info-entry').textContent())?.match(/#(\d+)/)?.[1]);
      const exitSeq = Number((await page.getByTestId('info-exit').textContent())?.match(/#(\d+)/)?.[1]);
      const ticks = page.getByTestId('settled-ticks');
      await expect
        .poll(() => ticks.getByTestId('ticks-entry').getAttribute('data-seq'), { timeout: 15_000 })
        .toBe(String(entrySeq));
      expect(await ticks.getByTestId('ticks-exit').getAttribute('data-seq')).toBe(String(exitSeq));
      // Each marked tick is the record's own: price and time as market/chain/record seals them.
      const sealed = async (seq: number): Promise<RecordedTick> => {
        const record = await readRecord<{ ticks: RecordedTick[] }>('market/chain/record', {
          symbol: 'BTC',
          seq: String(seq),
        });
        const tick = record.ticks.find((x) => x.seq === seq);
        if (!tick) throw new Error(`tick ${seq} is not in its batch`);
        return tick;
      };
      const entry = await sealed(entrySeq);
      const exit = await sealed(exitSeq);
      expect(entry.price).toBe(entryPrice);
      expect(await ticks.getByTestId('ticks-entry').getAttribute('data-price')).toBe(entry.price);
      expect(await ticks.getByTestId('ticks-entry').getAttribute('data-ts')).toBe(String(entry.ts));
      expect(await ticks.getByTestId('ticks-exit').getAttribute('data-price')).toBe(exit.price);
      expect(await ticks.getByTestId('ticks-exit').getAttribute('data-ts')).toBe(String(exit.ts));
      expect(await page.getByTestId('ticks-differ').count()).toBe(0);
      // Every recorded tick from entry to exit is a point of the line (the simulator numbers its ticks one by one).
      expect(Number(await page.getByTestId('settled-chart').getAttribute('data-points'))).toBe(exitSeq - entrySeq + 1);
      await ticks.scrollIntoViewIfNeeded();
      await shot(page, `options-chart-settled-${lang}-${theme}`);
    }, 150_000);
  }
});
