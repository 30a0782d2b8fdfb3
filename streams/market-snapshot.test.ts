import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Quote } from '../protocol/market';

/**
 * The market snapshot as the app reads it from the page (issue 27): checked against its schema, read once, and dated
 * in this device's time from when the document arrived, minus how old its newest quote already was at the server.
 */
const quote = (symbol: string, ts: number): Quote => ({
  symbol,
  id: 1,
  last: '100.5',
  open: '100',
  high: '101',
  low: '99',
  change_pct: '0.50',
  volume: '12',
  ts,
  seq: 7,
});

/** A fresh module (it reads once per page load) over a page holding `text` in the snapshot's element. */
async function readerOver(text: string | null) {
  vi.resetModules();
  document.body.innerHTML = '';
  if (text !== null) {
    const element = document.createElement('script');
    element.id = 'tw-market';
    element.type = 'application/json';
    element.textContent = text;
    document.body.append(element);
  }
  return import('./market-snapshot');
}

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('the market snapshot in the page', () => {
  it('is read with its age at the server: the newest quote was served_at − ts old when the document arrived', async () => {
    vi.spyOn(performance, 'timeOrigin', 'get').mockReturnValue(5_000_000);
    vi.spyOn(performance, 'getEntriesByType').mockReturnValue([{ responseStart: 300 } as unknown as PerformanceEntry]);
    const { receivedSnapshot } = await readerOver(
      JSON.stringify({ served_at: 9_000, quotes: [quote('BTC', 8_600), quote('ETH', 8_750)], instruments: [] }),
    );
    const snapshot = receivedSnapshot();
    expect(snapshot?.quotes.map((q) => q.symbol)).toEqual(['BTC', 'ETH']);
    // Arrived at 5,000,300 here; its newest quote was 250 ms old then.
    expect(snapshot?.seenAt).toBe(5_000_050);
    // Once per page load: the same answer, even if the element goes.
    document.body.innerHTML = '';
    expect(receivedSnapshot()).toBe(snapshot);
  });

  it('is none when the page has none, or what it holds does not read as one', async () => {
    expect((await readerOver(null)).receivedSnapshot()).toBeNull();
    expect((await readerOver('{not json')).receivedSnapshot()).toBeNull();
    expect((await readerOver(JSON.stringify({ served_at: 1, quotes: 'x', instruments: [] }))).receivedSnapshot()).toBe(
      null,
    );
    expect((await readerOver(JSON.stringify({ served_at: 1, quotes: [], instruments: [] }))).receivedSnapshot()).toBe(
      null,
    );
  });
});

describe("the snapshot's first board", () => {
  /** A page whose document arrived at 5,000,000 with a snapshot whose newest quote was 200 ms old then. */
  async function boardOver() {
    vi.spyOn(performance, 'timeOrigin', 'get').mockReturnValue(5_000_000);
    vi.spyOn(performance, 'getEntriesByType').mockReturnValue([{ responseStart: 0 } as unknown as PerformanceEntry]);
    await readerOver(JSON.stringify({ served_at: 9_000, quotes: [quote('BTC', 8_800)], instruments: [] }));
    const [{ snapshotBoard }, { coinQuotes }] = await Promise.all([import('./snapshot-board'), import('./market')]);
    return { snapshotBoard, coinQuotes };
  }

  it('holds its quotes while younger than the staleness limit, and nothing once older', async () => {
    const { snapshotBoard, coinQuotes } = await boardOver();
    const seenAt = 4_999_800;
    const limit = coinQuotes().freshness.limitMs;
    expect(snapshotBoard(seenAt + limit)?.quotes.get('BTC')?.last).toBe('100.5');
    expect(snapshotBoard(seenAt + limit + 1)).toBeUndefined();
  });

  it("starts the coin quotes' freshness at the snapshot's age, so a view showing it turns stale on time", async () => {
    const { coinQuotes } = await boardOver();
    vi.spyOn(Date, 'now').mockReturnValue(4_999_800 + 1_000);
    expect(coinQuotes().freshness.age()).toBe(1_000);
  });
});
