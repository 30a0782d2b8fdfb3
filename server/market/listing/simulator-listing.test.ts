import { describe, expect, it } from 'vitest';
import { quote as quoteSchema } from '../../../protocol/market';
import { MarketFeed } from '../feed';
import { INSTRUMENTS, type Instrument } from '../instruments';
import { MarketSimulator, type Tick } from '../simulator';

const T0 = Date.UTC(2024, 5, 4, 12, 0, 0);
const BTC = INSTRUMENTS.filter((i) => i.symbol === 'BTC');
const NEWC: Instrument = {
  id: 1000,
  symbol: 'NEWC',
  name: 'New Coin',
  kind: 'coin',
  quote: 'USDT',
  priceScale: 5,
  qtyScale: 0,
  startPrice: '0.25000',
  sigmaPerMinute: 0.002,
  tradeSize: 1000,
  hours: 'always',
};

/** A simulator on a hand-moved clock; `ticks` collects what it publishes live. */
function market(options: { now: () => number; listed?: { instrument: Instrument; listedAt: number }[] }) {
  const sim = new MarketSimulator({
    seed: 'listing',
    now: options.now,
    liveStart: T0,
    backfillDays: 1,
    alwaysOpen: true,
    instruments: BTC,
    maxCatchUpSteps: Number.POSITIVE_INFINITY,
    ...(options.listed ? { listed: options.listed } : {}),
  });
  const ticks: Tick[] = [];
  sim.subscribe((t) => ticks.push(t));
  return { sim, ticks, of: (symbol: string) => ticks.filter((t) => t.symbol === symbol) };
}

describe('a coin listed while the simulator runs', () => {
  it('opens with one trade at exactly its start price at its listing time, then walks from there', () => {
    let now = T0 + 10_000;
    const { sim, of } = market({ now: () => now });
    sim.advanceTo(now);
    const listedAt = now + 400; // between two steps
    now = listedAt;
    sim.addInstrument(NEWC, listedAt);
    // At once, before the next step: the listing trade, so the coin has a quote right away.
    expect(of('NEWC')).toEqual([expect.objectContaining({ ts: listedAt, price: 25_000, seq: 1, side: 'buy' })]);
    now += 60_000;
    sim.advanceTo(now);
    const walk = of('NEWC');
    expect(walk).toHaveLength(61); // the listing trade and one tick per step after it
    expect(walk.map((t) => t.seq)).toEqual(walk.map((_, k) => k + 1));
    expect(walk[1]?.ts).toBe(T0 + 11_000);
    // It walks: prices move, each a whole number of ticks, and stay near the start after a minute.
    expect(new Set(walk.map((t) => t.price)).size).toBeGreaterThan(10);
    for (const t of walk) {
      expect(Number.isSafeInteger(t.price) && t.price > 0 && Number.isSafeInteger(t.qty) && t.qty > 0).toBe(true);
      expect(Math.abs(t.price - 25_000)).toBeLessThan(2_500);
    }
  });

  it('walks the same prices whenever a process learns of it: from the start, at once, or late', () => {
    const listedAt = T0 + 5_250;
    const now = T0 + 30_000;
    const fromStart = market({ now: () => now, listed: [{ instrument: NEWC, listedAt }] });
    fromStart.sim.advanceTo(now);

    // Learns of it 20 s after the listing: catches up on the steps it missed, and publishes them.
    let lateNow = T0 + 25_000;
    const late = market({ now: () => lateNow });
    late.sim.advanceTo(lateNow);
    late.sim.addInstrument(NEWC, listedAt);
    lateNow = now;
    late.sim.advanceTo(lateNow);

    expect(late.of('NEWC')).toEqual(fromStart.of('NEWC'));
    expect(fromStart.of('NEWC')[0]).toMatchObject({ ts: listedAt, price: 25_000, seq: 1 });
    expect(fromStart.of('NEWC').at(-1)?.ts).toBe(now);
    // The static walks are untouched by the listing.
    expect(late.of('BTC')).toEqual(fromStart.of('BTC'));
  });

  it('a listing time in the history opens it there; before the history, at its start', () => {
    const inHistory = T0 - 3_600_000 + 7_000;
    let history: Tick[] = [];
    const now = T0;
    const sim = new MarketSimulator({
      seed: 'listing',
      now: () => now,
      liveStart: T0,
      backfillDays: 1,
      alwaysOpen: true,
      instruments: BTC,
      listed: [{ instrument: NEWC, listedAt: inHistory }],
    });
    sim.backfill((t) => history.push(t));
    const newc = history.filter((t) => t.symbol === 'NEWC');
    expect(newc[0]).toMatchObject({ ts: inHistory, price: 25_000, seq: 1 });
    expect(newc[1]?.ts).toBe(T0 - 3_600_000 + 15_000); // the next step of the history's 15 s grid
    expect(newc).toHaveLength(3_600_000 / 15_000); // the listing trade, then a step at every later step of the hour

    history = [];
    const longAgo = new MarketSimulator({
      seed: 'listing',
      now: () => now,
      liveStart: T0,
      backfillDays: 1,
      alwaysOpen: true,
      instruments: BTC,
      listed: [{ instrument: NEWC, listedAt: T0 - 30 * 86_400_000 }],
    });
    longAgo.backfill((t) => history.push(t));
    expect(history.find((t) => t.symbol === 'NEWC')).toMatchObject({ ts: longAgo.historyStart, price: 25_000 });
  });

  it('a listing time in the future waits for it', () => {
    let now = T0 + 10_000;
    const { sim, of } = market({ now: () => now });
    sim.advanceTo(now);
    sim.addInstrument(NEWC, T0 + 20_000);
    now = T0 + 19_000;
    sim.advanceTo(now);
    expect(of('NEWC')).toEqual([]);
    now = T0 + 22_000;
    sim.advanceTo(now);
    expect(of('NEWC').map((t) => [t.ts, t.seq])).toEqual([
      [T0 + 20_000, 1],
      [T0 + 21_000, 2],
      [T0 + 22_000, 3],
    ]);
  });

  it('numbers its ticks above the record it is given, and ignores a second listing of the same symbol', () => {
    const now = T0 + 5_000;
    const sim = new MarketSimulator({
      seed: 'listing',
      now: () => now,
      liveStart: T0,
      backfillDays: 0,
      alwaysOpen: true,
      instruments: BTC,
      startSeqs: new Map([['NEWC', 500]]),
    });
    const ticks: Tick[] = [];
    sim.subscribe((t) => ticks.push(t));
    sim.advanceTo(now);
    sim.addInstrument(NEWC, now);
    sim.addInstrument({ ...NEWC, startPrice: '9.00000' }, now - 1_000);
    expect(ticks.filter((t) => t.symbol === 'NEWC')).toEqual([expect.objectContaining({ seq: 501, price: 25_000 })]);
    expect(sim.instruments.map((i) => i.symbol)).toEqual(['BTC', 'NEWC']);
  });

  it('a snapshot without it (taken before its process learnt of it) restores, and the walk is the same', () => {
    const listedAt = T0 + 2_500;
    let now = T0 + 10_000;
    const leader = market({ now: () => now });
    leader.sim.advanceTo(now);
    const state = JSON.parse(JSON.stringify(leader.sim.snapshot()));
    // The joining process knows the coin from its start; the snapshot's leader did not yet.
    const joiner = market({ now: () => now, listed: [{ instrument: NEWC, listedAt }] });
    joiner.sim.restore(state);
    leader.sim.addInstrument(NEWC, listedAt);
    expect(joiner.of('NEWC')).toEqual(leader.of('NEWC'));
    const [fromLeader, fromJoiner] = [leader.ticks.length, joiner.ticks.length];
    now += 5_000;
    leader.sim.advanceTo(now);
    joiner.sim.advanceTo(now);
    expect(joiner.ticks.slice(fromJoiner)).toEqual(leader.ticks.slice(fromLeader));
    expect(joiner.ticks.length - fromJoiner).toBe(10);
    // A snapshot with the coin, before its listing trade, carries that too.
    const pending = market({ now: () => now });
    pending.sim.advanceTo(now);
    pending.sim.addInstrument(NEWC, now + 3_000);
    const saved = JSON.parse(JSON.stringify(pending.sim.snapshot()));
    expect(saved.walks[1].walk.opened).toBe(false);
    const restored = market({ now: () => now, listed: [{ instrument: NEWC, listedAt: now + 3_000 }] });
    restored.sim.restore(saved);
    now += 5_000;
    pending.sim.advanceTo(now);
    restored.sim.advanceTo(now);
    expect(restored.of('NEWC')).toEqual(pending.of('NEWC'));
    expect(restored.of('NEWC')).toHaveLength(1 + 2);
  });

  it('the feed serves it from its listing: quote at the start price, candles, trades', () => {
    let now = T0 + 10_000;
    const { sim } = market({ now: () => now });
    const feed = new MarketFeed(sim, () => now);
    sim.advanceTo(now);
    expect(feed.addInstrument(NEWC, now)).toBe(true);
    expect(feed.addInstrument(NEWC, now)).toBe(false);
    expect(feed.instruments('coin').map((i) => i.symbol)).toEqual(['BTC', 'NEWC']);
    expect(quoteSchema.parse(feed.quote('NEWC'))).toMatchObject({ symbol: 'NEWC', id: 1000, last: '0.25000', seq: 1 });
    now += 120_000;
    sim.advanceTo(now);
    expect(feed.quote('NEWC')).toMatchObject({ ts: now, open: '0.25000', seq: 121 });
    expect(feed.candles('NEWC', '1min', 10).length).toBeGreaterThanOrEqual(2);
    expect(feed.candles('NEWC', '1min', 10)[0]?.o).toBe('0.25000');
    expect(feed.trades('NEWC', 5)).toHaveLength(5);
    expect(feed.quotes('coin').map((q) => q.symbol)).toEqual(['BTC', 'NEWC']);
  });
});
