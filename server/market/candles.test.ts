import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TIMEFRAMES } from '../../protocol/market';
import { bucketStart, CandleBook, CandleSeries } from './candles';
import { changeBasisPoints, formatPercent, stats24h } from './stats';

const MINUTE = 60_000;
const START = Date.UTC(2024, 0, 1);

/** Trades in time order: gaps of 0..3 hours, prices and quantities as positive integers. */
const tradesArb = fc
  .array(
    fc.record({
      gap: fc.integer({ min: 0, max: 3 * 60 * MINUTE }),
      price: fc.integer({ min: 1, max: 10_000_000 }),
      qty: fc.integer({ min: 1, max: 1_000_000 }),
    }),
    { minLength: 1, maxLength: 400 },
  )
  .map((steps) => {
    let ts = START;
    return steps.map((s) => {
      ts += s.gap;
      return { ts, price: s.price, qty: s.qty };
    });
  });

describe('candles', () => {
  it('keep open and close within low..high in every timeframe', () => {
    fc.assert(
      fc.property(tradesArb, (trades) => {
        const book = new CandleBook();
        for (const t of trades) book.apply(t.ts, t.price, t.qty);
        for (const tf of TIMEFRAMES) {
          for (const bar of book.series[tf].latest(10_000)) {
            expect(bar.l).toBeLessThanOrEqual(Math.min(bar.o, bar.c));
            expect(bar.h).toBeGreaterThanOrEqual(Math.max(bar.o, bar.c));
            expect(bucketStart(tf, bar.t)).toBe(bar.t);
          }
        }
      }),
    );
  });

  it('volumes, highs and lows of the smaller timeframe add up to the larger one', () => {
    const pairs = [
      ['1min', '5min'],
      ['5min', '30min'],
      ['30min', '60min'],
      ['60min', '1day'],
      ['1day', '1week'],
      ['1day', '1mon'],
    ] as const;
    fc.assert(
      fc.property(tradesArb, (trades) => {
        const book = new CandleBook();
        for (const t of trades) book.apply(t.ts, t.price, t.qty);
        const total = trades.reduce((sum, t) => sum + t.qty, 0);
        for (const tf of TIMEFRAMES) {
          expect(book.series[tf].latest(10_000).reduce((sum, b) => sum + b.v, 0)).toBe(total);
        }
        for (const [small, large] of pairs) {
          for (const big of book.series[large].latest(10_000)) {
            const inside = book.series[small].latest(10_000).filter((b) => bucketStart(large, b.t) === big.t);
            expect(inside.reduce((sum, b) => sum + b.v, 0)).toBe(big.v);
            expect(Math.max(...inside.map((b) => b.h))).toBe(big.h);
            expect(Math.min(...inside.map((b) => b.l))).toBe(big.l);
            expect(inside[0]?.o).toBe(big.o);
            expect(inside[inside.length - 1]?.c).toBe(big.c);
          }
        }
      }),
    );
  });

  it('buckets weeks from Monday and months from the 1st (UTC)', () => {
    const wed = Date.UTC(2024, 5, 5, 15, 30);
    expect(new Date(bucketStart('1week', wed)).toISOString()).toBe('2024-06-03T00:00:00.000Z');
    expect(new Date(bucketStart('1mon', wed)).toISOString()).toBe('2024-06-01T00:00:00.000Z');
    expect(new Date(bucketStart('60min', wed)).toISOString()).toBe('2024-06-05T15:00:00.000Z');
  });

  it('keeps a bounded number of bars and ignores ticks older than the current bar', () => {
    const series = new CandleSeries('1min', 3);
    for (let m = 0; m < 10; m++) series.apply(START + m * MINUTE, 100 + m, 1);
    expect(series.size).toBe(3);
    expect(series.latest(5).map((b) => b.o)).toEqual([107, 108, 109]);
    expect(series.apply(START, 1, 1)).toBeUndefined();
  });
});

describe('24 h statistics', () => {
  it('cover the bars of the last 24 h with an exact change', () => {
    const bars = [
      { t: START, o: 50, h: 60, l: 40, c: 55, v: 5 },
      { t: START + 86_400_000, o: 100, h: 130, l: 90, c: 120, v: 7 },
      { t: START + 86_400_000 + MINUTE, o: 120, h: 125, l: 80, c: 125, v: 3 },
    ];
    expect(stats24h(bars, START + 86_400_000 + 2 * MINUTE)).toEqual({
      open: 100,
      high: 130,
      low: 80,
      last: 125,
      volume: 10,
      changeBp: 2_500,
    });
    expect(stats24h([], START)).toBeUndefined();
  });

  it('rounds the change half away from zero and prints it with two decimals', () => {
    expect(changeBasisPoints(3, 4)).toBe(3_333);
    expect(changeBasisPoints(3, 2)).toBe(-3_333);
    expect(changeBasisPoints(20_000, 20_001)).toBe(1); // 0.5 bp rounds up
    expect(changeBasisPoints(20_000, 19_999)).toBe(-1);
    expect(formatPercent(125)).toBe('1.25');
    expect(formatPercent(-5)).toBe('-0.05');
    expect(formatPercent(0)).toBe('0.00');
  });
});
