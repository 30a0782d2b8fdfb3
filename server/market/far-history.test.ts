import { beforeAll, describe, expect, it } from 'vitest';
import { type Candle, candle as candleSchema } from '../../protocol/market';
import { bucketStart } from './candles';
import { FAR_MONTHS, type LongTimeframe } from './far-history';
import { MarketFeed } from './feed';
import { INSTRUMENTS, type Instrument, instrumentBySymbol, parseUnits } from './instruments';
import { MarketSimulator, type Tick } from './simulator';

/** Wednesday 2025-03-12 15:37 UTC (11:37 in New York): the tick history starts mid-session, mid-week, mid-month. */
const NOW = Date.UTC(2025, 2, 12, 15, 37);
const LONG: readonly LongTimeframe[] = ['1day', '1week', '1mon'];

function market(seed: string, instruments: readonly Instrument[] = INSTRUMENTS) {
  const sim = new MarketSimulator({ seed, now: () => NOW, instruments });
  return { sim, feed: new MarketFeed(sim, () => NOW) };
}

/** A candle in integer units, as the feed holds it. */
function units(i: Instrument, c: Candle) {
  return {
    t: c.t,
    o: parseUnits(c.o, i.priceScale),
    h: parseUnits(c.h, i.priceScale),
    l: parseUnits(c.l, i.priceScale),
    c: parseUnits(c.c, i.priceScale),
    v: parseUnits(c.v, i.qtyScale),
  };
}

const symbolOf = (symbol: string) => instrumentBySymbol(symbol) as Instrument;

describe('the far past of the simulated market', () => {
  // One market of every instrument with the production history length (7 days of ticks), shared by the tests that
  // only read it.
  let feed: MarketFeed;
  let sim: MarketSimulator;
  beforeAll(() => {
    ({ feed, sim } = market('far'));
  });

  it('gives every coin and stock 300 candles on 1D, 1W and 1M, in order and on UTC period starts', () => {
    // Collected and compared once: 21 600 candles, each checked in several ways.
    const wrong: string[] = [];
    for (const i of INSTRUMENTS) {
      for (const tf of LONG) {
        const candles = feed.candles(i.symbol, tf, 300);
        expect(candles, `${i.symbol} ${tf}`).toHaveLength(300);
        let previous = Number.NEGATIVE_INFINITY;
        for (const c of candles) {
          const bar = units(i, c);
          const fine =
            candleSchema.safeParse(c).success &&
            bucketStart(tf, c.t) === c.t &&
            c.t > previous &&
            bar.l > 0 &&
            bar.l <= Math.min(bar.o, bar.c) &&
            bar.h >= Math.max(bar.o, bar.c) &&
            bar.v > 0;
          if (!fine) wrong.push(`${i.symbol} ${tf} ${JSON.stringify(c)}`);
          previous = c.t;
        }
      }
      // The monthly series reaches back FAR_MONTHS whole months before the month the ticks start in.
      expect(feed.candles(i.symbol, '1mon', 1_000).length).toBeGreaterThanOrEqual(FAR_MONTHS + 1);
    }
    expect(wrong).toEqual([]);
  });

  it('is the same for the same seed and start, and another seed differs', () => {
    const few = ['BTC', 'USDT', 'AAPL'].map(symbolOf);
    const a = market('same', few).feed;
    const b = market('same', few).feed;
    const c = market('other', few).feed;
    for (const i of few) {
      for (const tf of LONG) {
        const bars = a.candles(i.symbol, tf, 1_000);
        expect(bars.length).toBeGreaterThanOrEqual(300);
        expect(b.candles(i.symbol, tf, 1_000)).toEqual(bars);
        expect(c.candles(i.symbol, tf, 1_000)).not.toEqual(bars);
      }
    }
  });

  it("agrees across timeframes: a week's and a month's candle are their days' open, extremes, close and volume", () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const i of INSTRUMENTS) {
      const days = feed.candles(i.symbol, '1day', 1_000).map((c) => units(i, c));
      const first = days[0]?.t ?? Number.POSITIVE_INFINITY;
      for (const tf of ['1week', '1mon'] as const) {
        const byBucket = new Map<number, typeof days>();
        for (const d of days) {
          const t = bucketStart(tf, d.t);
          byBucket.set(t, [...(byBucket.get(t) ?? []), d]);
        }
        for (const bar of feed.candles(i.symbol, tf, 1_000).map((c) => units(i, c))) {
          // Only buckets whose every day the daily window holds.
          if (bar.t < first) continue;
          const inside = byBucket.get(bar.t) ?? [];
          const fromDays = inside.length && {
            t: bar.t,
            o: inside[0]?.o,
            h: Math.max(...inside.map((d) => d.h)),
            l: Math.min(...inside.map((d) => d.l)),
            c: inside[inside.length - 1]?.c,
            v: inside.reduce((sum, d) => sum + d.v, 0),
          };
          if (JSON.stringify(fromDays) !== JSON.stringify(bar)) {
            wrong.push(`${i.symbol} ${tf}: ${JSON.stringify(bar)} from days ${JSON.stringify(fromDays)}`);
          }
          checked++;
        }
      }
    }
    expect(wrong).toEqual([]);
    // About 33 months and 143 weeks per instrument lie wholly inside the 1000 days.
    expect(checked).toBeGreaterThan(INSTRUMENTS.length * 150);
  });

  it('joins the tick history without a jump: each far bar opens at the last close, the newest at the start price', () => {
    const instruments = ['BTC', 'DOGE', 'USDC', 'AAPL'].map(symbolOf);
    const probe = new MarketSimulator({ seed: 'far', now: () => NOW, instruments });
    const firstTicks = new Map<string, Tick>();
    probe.backfill((tick) => {
      if (!firstTicks.has(tick.symbol)) firstTicks.set(tick.symbol, tick);
    });
    for (const i of probe.instruments) {
      const far = probe.history(i.symbol, '1day');
      // The far past closes where the walk starts: the instrument's start price, before the first tick.
      expect(far[far.length - 1]?.c).toBe(parseUnits(i.startPrice, i.priceScale));
      expect(far[far.length - 1]?.t).toBeLessThan(probe.historyStart);
      // Days, and the weeks and months beyond them (walked a week at a time), each open at the last one's close.
      for (const tf of LONG) {
        const bars = probe.history(i.symbol, tf);
        expect(bars.filter((b, k) => k > 0 && b.o !== bars[k - 1]?.c)).toEqual([]);
      }
      const first = firstTicks.get(i.symbol) as Tick;
      expect(first.ts).toBeGreaterThanOrEqual(probe.historyStart);
      // The first tick is one 15-second step of the walk from there: far below the bound, for any volatility regime.
      expect(Math.abs(Math.log(first.price / parseUnits(i.startPrice, i.priceScale)))).toBeLessThan(0.05);
    }
    // Served, the days run on across the seam: a day opens one walk step from the previous close at most.
    const jumps: string[] = [];
    for (const i of INSTRUMENTS) {
      const days = feed.candles(i.symbol, '1day', 1_000).map((c) => units(i, c));
      for (let k = 1; k < days.length; k++) {
        const step = Math.abs(Math.log((days[k]?.o ?? 0) / (days[k - 1]?.c ?? 1)));
        if (!(step < 0.05)) jumps.push(`${i.symbol} ${days[k]?.t}: ${step}`);
      }
    }
    expect(jumps).toEqual([]);
  });

  it('merges the day, week and month the ticks start in into one candle each', () => {
    const btc = symbolOf('BTC');
    const far = sim.history('BTC', '1mon');
    const seamMonth = bucketStart('1mon', sim.historyStart);
    const farPart = far[far.length - 1];
    expect(farPart?.t).toBe(seamMonth);
    const served = feed.candles('BTC', '1mon', 1_000).map((c) => units(btc, c));
    const merged = served.find((c) => c.t === seamMonth);
    expect(merged?.o).toBe(farPart?.o);
    expect(merged?.h).toBeGreaterThanOrEqual(farPart?.h ?? Number.POSITIVE_INFINITY);
    expect(merged?.l).toBeLessThanOrEqual(farPart?.l ?? 0);
    expect(merged?.v).toBeGreaterThan(farPart?.v ?? Number.POSITIVE_INFINITY);
    expect(served.filter((c) => c.t === seamMonth)).toHaveLength(1);
    // The month before is wholly far, and the seam month opens at its close.
    expect(served[served.indexOf(merged as (typeof served)[number]) - 1]?.c).toBe(merged?.o);
  });

  it('gives stocks trading days only (no weekends), unless they trade around the clock', () => {
    const aapl = [symbolOf('AAPL')];
    const weekday = (t: number) => new Date(t).getUTCDay();
    const nyse = market('far', aapl).sim.history('AAPL', '1day');
    expect(nyse.length).toBeGreaterThan(300);
    expect(nyse.filter((d) => weekday(d.t) === 0 || weekday(d.t) === 6)).toEqual([]);
    const always = new MarketSimulator({ seed: 'far', now: () => NOW, instruments: aapl, alwaysOpen: true });
    expect(always.history('AAPL', '1day').some((d) => weekday(d.t) === 6)).toBe(true);
  });

  it('has none for the short timeframes, which the ticks fill', () => {
    expect(sim.history('BTC', '60min')).toEqual([]);
    expect(sim.history('NOPE', '1day')).toEqual([]);
  });
});
