import { describe, expect, it } from 'vitest';
import { quote as quoteSchema } from '../../protocol/market';
import { MarketFeed } from './feed';
import { formatUnits, INSTRUMENTS, instrumentBySymbol, isNyseOpen, parseUnits } from './instruments';
import { MarketSimulator, STABLE_MAX, STABLE_MIN, type Tick, Walk } from './simulator';

/** A Tuesday, 2024-06-04 12:00 UTC (08:00 in New York: before the opening bell). */
const T0 = Date.UTC(2024, 5, 4, 12, 0, 0);

function liveTicks(seed: string, count: number, options: { alwaysOpen?: boolean; start?: number } = {}): Tick[] {
  let now = options.start ?? T0;
  const sim = new MarketSimulator({ seed, now: () => now, backfillDays: 0, alwaysOpen: options.alwaysOpen ?? true });
  const ticks: Tick[] = [];
  sim.subscribe((t) => ticks.push(t));
  while (ticks.length < count) {
    now += 1_000;
    sim.advanceTo(now);
  }
  return ticks.slice(0, count);
}

describe('market simulator', () => {
  it('the same seed gives the same prices; another seed differs', () => {
    const a = liveTicks('alpha', 1_000);
    const b = liveTicks('alpha', 1_000);
    const c = liveTicks('beta', 1_000);
    expect(a).toHaveLength(1_000);
    expect(b).toEqual(a);
    expect(c.map((t) => t.price)).not.toEqual(a.map((t) => t.price));
  });

  it('a restarted simulator numbers its ticks above the record it is given, never reusing a number', () => {
    const first = liveTicks('alpha', 200);
    const lastBtc = Math.max(...first.filter((t) => t.symbol === 'BTC').map((t) => t.seq));
    let now = T0 + 3_600_000;
    const restarted = new MarketSimulator({
      seed: 'alpha',
      now: () => now,
      backfillDays: 0,
      alwaysOpen: true,
      startSeqs: new Map([['BTC', lastBtc]]),
    });
    const ticks: Tick[] = [];
    restarted.subscribe((t) => ticks.push(t));
    now += 2_000;
    restarted.advanceTo(now);
    const btc = ticks.filter((t) => t.symbol === 'BTC');
    expect(btc.length).toBeGreaterThan(0);
    expect(btc[0]?.seq).toBe(lastBtc + 1);
    // Symbols the record does not know start from the beginning as before.
    expect(ticks.find((t) => t.symbol === 'ETH')?.seq).toBe(1);
  });

  it('the backfilled history is deterministic too', () => {
    const history = (seed: string) => {
      const sim = new MarketSimulator({ seed, now: () => T0, backfillDays: 1, instruments: INSTRUMENTS.slice(0, 2) });
      const ticks: Tick[] = [];
      sim.backfill((t) => ticks.push(t));
      return ticks;
    };
    const a = history('s');
    expect(a.length).toBe(2 * 24 * 60 * 4);
    expect(history('s')).toEqual(a);
    expect(history('t')).not.toEqual(a);
  });

  it('publishes whole ticks: every price is an integer of ticks and formats to an exact string', () => {
    for (const tick of liveTicks('ticks', 3_000)) {
      const i = instrumentBySymbol(tick.symbol);
      if (!i) throw new Error('unknown symbol');
      expect(Number.isSafeInteger(tick.price) && tick.price > 0).toBe(true);
      expect(Number.isSafeInteger(tick.qty) && tick.qty > 0).toBe(true);
      const text = formatUnits(tick.price, i.priceScale);
      expect(text).toMatch(i.priceScale ? new RegExp(`^\\d+\\.\\d{${i.priceScale}}$`) : /^\d+$/);
      expect(parseUnits(text, i.priceScale)).toBe(tick.price);
    }
  });

  it('keeps stablecoins within 0.995..1.005 over a long run', () => {
    for (const symbol of ['USDT', 'USDC']) {
      const i = instrumentBySymbol(symbol);
      if (!i) throw new Error(symbol);
      for (const seed of ['a', 'b', 'c']) {
        const walk = new Walk(i, seed);
        let min = Number.POSITIVE_INFINITY;
        let max = 0;
        for (let n = 0; n < 100_000; n++) {
          const { price } = walk.step(1);
          min = Math.min(min, price);
          max = Math.max(max, price);
        }
        expect(min / 10 ** i.priceScale).toBeGreaterThanOrEqual(STABLE_MIN);
        expect(max / 10 ** i.priceScale).toBeLessThanOrEqual(STABLE_MAX);
        expect(max).toBeGreaterThan(min); // it does move
      }
    }
  });

  it('volatility changes over time (calm and hectic stretches)', () => {
    const i = instrumentBySymbol('BTC');
    if (!i) throw new Error('BTC');
    const walk = new Walk(i, 'vol');
    const spreads: number[] = [];
    let prev = walk.step(1).price;
    for (let hour = 0; hour < 48; hour++) {
      let sumSq = 0;
      for (let m = 0; m < 60; m++) {
        const { price } = walk.step(1);
        sumSq += Math.log(price / prev) ** 2;
        prev = price;
      }
      spreads.push(Math.sqrt(sumSq / 60));
    }
    expect(Math.max(...spreads) / Math.min(...spreads)).toBeGreaterThan(1.5);
  });

  it('moves stocks only in NYSE hours unless always-open', () => {
    expect(isNyseOpen(T0)).toBe(false); // 08:00 New York
    expect(isNyseOpen(Date.UTC(2024, 5, 4, 13, 30))).toBe(true); // 09:30 EDT
    expect(isNyseOpen(Date.UTC(2024, 5, 4, 19, 59))).toBe(true);
    expect(isNyseOpen(Date.UTC(2024, 5, 4, 20, 0))).toBe(false); // 16:00 EDT
    expect(isNyseOpen(Date.UTC(2024, 0, 8, 14, 30))).toBe(true); // 09:30 EST in winter
    expect(isNyseOpen(Date.UTC(2024, 5, 8, 15, 0))).toBe(false); // Saturday

    const stocks = new Set(INSTRUMENTS.filter((i) => i.kind === 'stock').map((i) => i.symbol));
    // Before the bell: coins tick, stocks do not.
    const closed = liveTicks('hours', 2_000, { alwaysOpen: false });
    expect(closed.some((t) => stocks.has(t.symbol))).toBe(false);
    // After the bell (fake clock at 09:30 New York) they do.
    const open = liveTicks('hours', 2_000, { alwaysOpen: false, start: Date.UTC(2024, 5, 4, 13, 30) });
    expect(open.some((t) => stocks.has(t.symbol))).toBe(true);
    // Always-open mode trades them around the clock.
    expect(liveTicks('hours', 2_000, { alwaysOpen: true }).some((t) => stocks.has(t.symbol))).toBe(true);
  });

  it('a stock quote stays put over a closed market', () => {
    let now = Date.UTC(2024, 5, 7, 19, 0); // Friday 15:00 New York
    const sim = new MarketSimulator({ seed: 'weekend', now: () => now, backfillDays: 1 });
    const feed = new MarketFeed(sim, () => now);
    now = Date.UTC(2024, 5, 7, 20, 30); // after the close
    sim.advanceTo(now);
    const friday = feed.quote('AAPL');
    now = Date.UTC(2024, 5, 8, 20, 0); // Saturday
    sim.advanceTo(now);
    expect(feed.quote('AAPL')?.last).toBe(friday?.last);
    expect(feed.quote('AAPL')?.ts).toBe(friday?.ts);
    expect(feed.quote('BTC')?.ts).toBe(now);
    expect(quoteSchema.parse(feed.quote('BTC'))).toBeTruthy();
  });
});
