// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Candle, Trade } from '../protocol/market';
import { type CandleSeries, createCandleStream, MAX_BARS, mergeCandles } from './candles';
import { FakeTopics } from './testing';
import { createTradeStream, mergeTrades, RECENT_TRADES } from './trades';

const bar = (t: number, c: string, v: string): Candle => ({ t, o: c, h: c, l: c, c, v });
const trade = (id: string, ts: number): Trade => ({ id, price: '1', qty: '1', side: 'buy', ts });

describe('merging candles', () => {
  it('appends new buckets, updates the open one only with more volume, and flags history changes', () => {
    const held = [bar(60, '1', '5'), bar(120, '2', '3')];
    const live = mergeCandles(held, [bar(120, '3', '4'), bar(180, '4', '1')]);
    expect(live.bars.map((b) => [b.t, b.c])).toEqual([
      [60, '1'],
      [120, '3'],
      [180, '4'],
    ]);
    expect(live.changedHistory).toBe(false);

    const stale = mergeCandles(live.bars, [bar(120, '9', '3.5')]); // less volume: an older view of the bucket
    expect(stale.changed).toBe(false);
    expect(stale.bars[1]?.c).toBe('3');

    const backfill = mergeCandles(live.bars, [bar(0, '7', '1')]);
    expect(backfill.changedHistory).toBe(true);
    expect(backfill.bars[0]?.t).toBe(0);
  });

  it('keeps at most MAX_BARS, the newest', () => {
    const many = Array.from({ length: MAX_BARS + 10 }, (_, i) => bar(i * 60, '1', '1'));
    const { bars } = mergeCandles([], many);
    expect(bars).toHaveLength(MAX_BARS);
    expect(bars[0]?.t).toBe(600);
  });
});

describe('the candle stream', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('draws HTTP history first, then follows the socket; a snapshot that rewrites history resets the chart', async () => {
    const topics = new FakeTopics();
    const fetch = vi.fn(async () => [bar(60, '1', '1'), bar(120, '2', '1')]);
    const stream = createCandleStream({ source: topics, symbol: 'BTC', period: '1min', fetch });
    const seen: CandleSeries[] = [];
    stream.series$.subscribe((s) => seen.push(s));
    await vi.advanceTimersByTimeAsync(0);
    expect(topics.opened).toEqual(['kline:BTC:1min']);
    expect(seen.at(-1)?.candles).toHaveLength(2);
    const reset = seen.at(-1)?.resetVersion;

    topics.send('kline:BTC:1min', 'update', 1, [bar(120, '3', '2')]);
    expect(seen.at(-1)?.candles.at(-1)?.c).toBe('3');
    expect(seen.at(-1)?.resetVersion).toBe(reset);
    const count = seen.length;
    topics.send('kline:BTC:1min', 'update', 2, []); // heartbeat
    expect(seen).toHaveLength(count);
    expect(stream.freshness.isStale()).toBe(false);

    topics.send('kline:BTC:1min', 'snapshot', 5, [bar(0, '1', '1'), bar(60, '1', '1'), bar(120, '3', '2')]);
    expect(seen.at(-1)?.resetVersion).toBe((reset ?? 0) + 1);
    expect(seen.at(-1)?.candles.map((b) => b.t)).toEqual([0, 60, 120]);
  });
});

describe('recent trades', () => {
  it('puts updates on top, drops repeats, and a snapshot replaces the list', () => {
    const first = mergeTrades([], [trade('b', 2), trade('a', 1)], true);
    const next = mergeTrades(first, [trade('c', 3), trade('b', 2)], false);
    expect(next.map((t) => t.id)).toEqual(['c', 'b', 'a']);
    expect(mergeTrades(next, [trade('z', 9)], true).map((t) => t.id)).toEqual(['z']);
    const long = Array.from({ length: 50 }, (_, i) => trade(String(i), i));
    expect(mergeTrades([], long, true)).toHaveLength(RECENT_TRADES);
  });

  it('streams the topic, skipping empty heartbeats', () => {
    const topics = new FakeTopics();
    const { trades$ } = createTradeStream(topics, 'ETH');
    const seen: string[][] = [];
    trades$.subscribe((list) => seen.push(list.map((t) => t.id)));
    topics.send('trades:ETH', 'snapshot', 1, [trade('a', 1)]);
    topics.send('trades:ETH', 'update', 2, []);
    topics.send('trades:ETH', 'update', 3, [trade('b', 2)]);
    expect(seen).toEqual([['a'], ['b', 'a']]);
  });
});
