// @vitest-environment node
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Quote } from '../protocol/market';
import { Freshness, tradingGate } from './freshness';
import { createQuoteStream, isNewer, mergeQuotes, type QuoteBoard } from './quotes';
import { FakeTopics } from './testing';

const q = (symbol: string, last: string, ts: number, seq = ts): Quote => ({
  symbol,
  id: 1,
  last,
  open: last,
  high: last,
  low: last,
  change_pct: '0.00',
  volume: '0',
  ts,
  seq,
});

describe('merging quotes', () => {
  it('keeps the newer server timestamp, then the higher sequence; equal is a duplicate', () => {
    expect(isNewer(undefined, q('BTC', '1', 5))).toBe(true);
    expect(isNewer(q('BTC', '1', 5), q('BTC', '2', 6))).toBe(true);
    expect(isNewer(q('BTC', '1', 6), q('BTC', '2', 5))).toBe(false);
    expect(isNewer(q('BTC', '1', 5, 1), q('BTC', '2', 5, 2))).toBe(true);
    expect(isNewer(q('BTC', '1', 5, 2), q('BTC', '1', 5, 2))).toBe(false);
  });

  it('ends with the newest quote per symbol whatever order the two paths deliver in', () => {
    const quote = fc
      .record({ symbol: fc.constantFrom('BTC', 'ETH', 'SOL'), ts: fc.integer({ min: 0, max: 50 }) })
      .map(({ symbol, ts }) => q(symbol, String(ts), ts));
    fc.assert(
      fc.property(fc.array(fc.array(quote, { maxLength: 5 }), { maxLength: 20 }), (batches) => {
        const board = new Map<string, Quote>();
        for (const batch of batches) mergeQuotes(board, batch);
        for (const [symbol, held] of board) {
          const newest = Math.max(
            ...batches
              .flat()
              .filter((x) => x.symbol === symbol)
              .map((x) => x.ts),
          );
          expect(held.ts).toBe(newest);
        }
        // Merging everything again changes nothing: all are duplicates or older.
        expect(batches.some((b) => mergeQuotes(board, b))).toBe(false);
      }),
    );
  });
});

describe('the quote stream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(pollResult: () => Quote[] = () => []) {
    const topics = new FakeTopics();
    const poll = vi.fn(async () => pollResult());
    const stream = createQuoteStream({
      source: topics,
      topic: 'quotes',
      poll,
      pollWhileUpMs: 30_000,
      pollWhileDownMs: 2_000,
      freshness: new Freshness(5_000),
    });
    const boards: QuoteBoard[] = [];
    return { topics, poll, stream, boards, subscribe: () => stream.board$.subscribe((b) => boards.push(b)) };
  }

  it('merges socket and polled quotes, newer wins, duplicates emit nothing', async () => {
    let polled = [q('BTC', '100', 10), q('ETH', '5', 10)];
    const { topics, boards, subscribe } = setup(() => polled);
    subscribe();
    await vi.advanceTimersByTimeAsync(0);
    expect(boards.at(-1)?.quotes.get('BTC')?.last).toBe('100');

    topics.send('quotes', 'snapshot', 1, [q('BTC', '101', 12), q('ETH', '4', 9)]);
    expect(boards.at(-1)?.quotes.get('BTC')?.last).toBe('101');
    expect(boards.at(-1)?.quotes.get('ETH')?.last).toBe('5'); // the socket's ETH was older than the poll's
    const count = boards.length;
    topics.send('quotes', 'update', 2, [q('BTC', '101', 12)]); // duplicate
    expect(boards).toHaveLength(count);

    polled = [q('BTC', '99', 11)]; // late poll: older than the socket's
    await vi.advanceTimersByTimeAsync(2_000);
    expect(boards).toHaveLength(count);
    expect(boards.at(-1)?.quotes.get('BTC')?.last).toBe('101');
  });

  it('polls often while the socket is down and rarely while it is up', async () => {
    const { topics, poll, subscribe } = setup();
    subscribe();
    await vi.advanceTimersByTimeAsync(6_000);
    expect(poll).toHaveBeenCalledTimes(4); // at 0, 2, 4, 6 s
    topics.state.next('connected');
    await vi.advanceTimersByTimeAsync(29_000);
    expect(poll).toHaveBeenCalledTimes(5); // once on the switch, the next after 30 s
    await vi.advanceTimersByTimeAsync(1_000);
    expect(poll).toHaveBeenCalledTimes(6);
    topics.state.next('reconnecting');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(poll).toHaveBeenCalledTimes(8);
  });

  it('is shared: many observers, one topic and one poller', async () => {
    const { topics, poll, stream } = setup();
    const subs = [1, 2, 3].map(() => stream.board$.subscribe());
    await vi.advanceTimersByTimeAsync(0);
    expect(topics.opened).toEqual(['quotes']);
    expect(poll).toHaveBeenCalledTimes(1);
    for (const s of subs) s.unsubscribe();
    expect(topics.observed('quotes')).toBe(false);
  });

  it('goes stale after the limit without signs of life; a message makes it fresh; a poll only if prices moved', async () => {
    let polled = [q('BTC', '1', 10)];
    const { topics, stream, subscribe } = setup(() => polled);
    const stale: boolean[] = [];
    stream.freshness.stale$.subscribe((s) => stale.push(s));
    expect(stale).toEqual([true]); // nothing yet
    subscribe();
    topics.state.next('connected');
    await vi.advanceTimersByTimeAsync(0);
    expect(stale).toEqual([true, false]); // the first poll brought prices
    topics.send('quotes', 'snapshot', 1, []);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(stream.freshness.age()).toBe(5_000);
    expect(stale.at(-1)).toBe(false);
    await vi.advanceTimersByTimeAsync(500);
    expect(stale.at(-1)).toBe(true);

    // The next poll (30 s after the first) returns the same old prices: still stale.
    await vi.advanceTimersByTimeAsync(25_000);
    expect(stale.at(-1)).toBe(true);
    topics.send('quotes', 'update', 2, []); // a heartbeat: the feed is alive
    expect(stale.at(-1)).toBe(false);

    polled = [q('BTC', '2', 20)];
    await vi.advanceTimersByTimeAsync(10_000);
    expect(stale.at(-1)).toBe(true);
    await vi.advanceTimersByTimeAsync(20_000); // poll at 60 s brings newer prices
    expect(stale.at(-1)).toBe(false);
  });

  it('counts the age of a price that arrived already old, and never goes back in time', () => {
    const freshness = new Freshness(5_000);
    freshness.touch(1_000_000 - 4_000); // a snapshot four seconds old: fresh for one more second
    expect(freshness.isStale()).toBe(false);
    vi.advanceTimersByTime(1_001);
    expect(freshness.isStale()).toBe(true);
    freshness.touch();
    freshness.touch(1_000_000); // older than the live touch just made: ignored
    expect(freshness.age()).toBe(0);
  });

  it('closes the trading gate while any price it depends on is stale', () => {
    const a = new Freshness(1_000);
    const b = new Freshness(1_000);
    const gates: boolean[] = [];
    tradingGate(a, b).subscribe((g) => gates.push(g.allowed));
    a.touch();
    expect(gates.at(-1)).toBe(false);
    b.touch();
    expect(gates.at(-1)).toBe(true);
    vi.advanceTimersByTime(1_500);
    expect(gates).toEqual([false, true, false]);
  });
});
