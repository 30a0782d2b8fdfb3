import { describe, expect, it } from 'vitest';
import { MarketFeed } from '../feed';
import { type Instrument, instrumentBySymbol } from '../instruments';
import { MarketSimulator, type PriceSource, type Tick, type TickListener } from '../simulator';
import { CompositePriceSource } from './composite';
import { TickListeners } from './tick-listeners';

const BTC = instrumentBySymbol('BTC') as Instrument;
const AAPL = instrumentBySymbol('AAPL') as Instrument;
const MINUTE = 60_000;
const T0 = Date.UTC(2025, 2, 14, 12, 0, 0);

/** A live source the test drives by hand. */
class HandSource implements PriceSource {
  readonly listeners = new TickListeners();
  started = 0;
  stopped = 0;
  constructor(readonly instruments: readonly Instrument[]) {}
  subscribe(listener: TickListener, symbol?: string) {
    return this.listeners.add(listener, symbol);
  }
  start() {
    this.started++;
  }
  stop() {
    this.stopped++;
  }
  trade(symbol: string, seq: number, price: number, ts: number) {
    const i = instrumentBySymbol(symbol) as Instrument;
    this.listeners.publish({ symbol, instrumentId: i.id, ts, price, qty: 7, side: 'buy', seq });
  }
}

function setUp() {
  let now = T0;
  const simulator = new MarketSimulator({
    seed: 'composite',
    now: () => now,
    instruments: [BTC, AAPL],
    alwaysOpen: true,
    backfillDays: 1 / 24,
    backfillStepMs: MINUTE,
  });
  const live = new HandSource([BTC]);
  const composite = new CompositePriceSource(simulator, live);
  const advance = (ms: number) => {
    now += ms;
    simulator.advanceTo(now);
  };
  return { simulator, live, composite, advance, clock: () => now };
}

describe('CompositePriceSource', () => {
  it('serves every instrument, backfills only the base’s own, and numbers live coins as the live source does', () => {
    const { live, composite, advance } = setUp();
    expect(composite.instruments.map((i) => i.symbol)).toEqual(['BTC', 'AAPL']);
    const history: Tick[] = [];
    composite.backfill((tick) => history.push(tick));
    // One hour at one step a minute: AAPL's 60 simulated ticks, and none for BTC, which is live.
    expect(history.map((t) => t.symbol)).toEqual(Array.from({ length: 60 }, () => 'AAPL'));
    expect(history.map((t) => t.seq)).toEqual(Array.from({ length: 60 }, (_, k) => k + 1));

    const ticks: Tick[] = [];
    composite.subscribe((tick) => ticks.push(tick));
    advance(2_000);
    // The simulator stepped both; only AAPL gets through, continuing its history's sequence.
    expect(ticks.map((t) => [t.symbol, t.seq])).toEqual([
      ['AAPL', 61],
      ['AAPL', 62],
      ['AAPL', 63],
    ]);
    live.trade('BTC', 1, 8_341_259, T0 + 2_500);
    live.trade('BTC', 2, 8_341_260, T0 + 2_600);
    // BTC's first tick is the live source's first: no offset, as no history was recorded for it.
    expect(ticks.filter((t) => t.symbol === 'BTC').map((t) => [t.seq, t.price])).toEqual([
      [1, 8_341_259],
      [2, 8_341_260],
    ]);
  });

  it('filters by symbol for one-symbol subscribers', () => {
    const { live, composite, advance } = setUp();
    composite.backfill(() => {});
    const btc: Tick[] = [];
    const aapl: Tick[] = [];
    composite.subscribe((tick) => btc.push(tick), 'BTC');
    composite.subscribe((tick) => aapl.push(tick), 'AAPL');
    advance(1_000);
    live.trade('BTC', 1, 100, T0 + 1_500);
    expect(btc.map((t) => [t.symbol, t.seq])).toEqual([['BTC', 1]]);
    expect(aapl.map((t) => [t.symbol, t.seq])).toEqual([
      ['AAPL', 61],
      ['AAPL', 62],
    ]);
  });

  it('passes the live sequence through unchanged without a backfill too', () => {
    const { live, composite } = setUp();
    const ticks: Tick[] = [];
    composite.subscribe((tick) => ticks.push(tick));
    live.trade('BTC', 1, 100, T0);
    live.trade('BTC', 2, 101, T0 + 1);
    expect(ticks.map((t) => t.seq)).toEqual([1, 2]);
  });

  it('starts and stops both sources', () => {
    const { live, composite } = setUp();
    composite.start();
    composite.stop();
    expect([live.started, live.stopped]).toEqual([1, 1]);
  });

  it('gives a feed stock charts from the first moment, and a live coin’s only from its first live trade', () => {
    const { live, composite, advance, clock } = setUp();
    const feed = new MarketFeed(composite, clock);
    // Stocks: the simulated hour. The live coin: nothing at all, no quote, no candle, no trade.
    expect(feed.candles('AAPL', '1min', 100)).toHaveLength(60);
    expect(feed.quote('AAPL')?.seq).toBe(60);
    expect(feed.quote('BTC')).toBeUndefined();
    expect(feed.candles('BTC', '1min', 100)).toEqual([]);
    // The stock's long timeframes reach back years (the simulator's far past); the live coin gets none of it either.
    expect(feed.candles('AAPL', '1mon', 300)).toHaveLength(300);
    expect(feed.candles('BTC', '1mon', 300)).toEqual([]);
    expect(feed.trades('BTC', 100)).toEqual([]);
    expect(feed.quotes('coin').map((q) => q.symbol)).toEqual([]);

    // The simulator's BTC walk keeps stepping underneath; none of it reaches the feed.
    advance(90_000);
    expect(feed.quote('BTC')).toBeUndefined();
    expect(feed.quote('AAPL')?.seq).toBe(60 + 91);

    live.trade('BTC', 1, 8_341_259, T0 + 2_500);
    live.trade('BTC', 2, 8_341_900, T0 + 30_000);
    live.trade('BTC', 3, 8_300_000, T0 + 70_000);
    live.trade('BTC', 4, 8_310_000, T0 + 80_000);
    // Candles, 24 h figures and trades are those four trades alone (7 units of 0.00001 BTC each).
    expect(feed.candles('BTC', '1min', 100)).toEqual([
      { t: T0, o: '83412.59', h: '83419.00', l: '83412.59', c: '83419.00', v: '0.00014' },
      { t: T0 + MINUTE, o: '83000.00', h: '83100.00', l: '83000.00', c: '83100.00', v: '0.00014' },
    ]);
    expect(feed.candles('BTC', '1day', 300)).toEqual([
      { t: Date.UTC(2025, 2, 14), o: '83412.59', h: '83419.00', l: '83000.00', c: '83100.00', v: '0.00028' },
    ]);
    expect(feed.quote('BTC')).toEqual({
      symbol: 'BTC',
      id: BTC.id,
      last: '83100.00',
      open: '83412.59',
      high: '83419.00',
      low: '83000.00',
      // (8310000 - 8341259) / 8341259 = -0.37475...%: -37 basis points.
      change_pct: '-0.37',
      volume: '0.00028',
      ts: T0 + 80_000,
      seq: 4,
    });
    expect(feed.trades('BTC', 100).map((t) => [t.id, t.price])).toEqual([
      ['BTC-4', '83100.00'],
      ['BTC-3', '83000.00'],
      ['BTC-2', '83419.00'],
      ['BTC-1', '83412.59'],
    ]);
    expect(feed.quotes('coin').map((q) => q.symbol)).toEqual(['BTC']);
    feed.close();
  });
});
