import { describe, expect, it } from 'vitest';
import { MarketFeed } from '../feed';
import { INSTRUMENTS } from '../instruments';
import { MarketSimulator, type Tick } from '../simulator';
import { FakeLeaseStore, FakeTickBus } from './fakes';
import { type MarketOrigin, RedisTickSource } from './redis-tick-source';
import { decodeSnapshot } from './snapshot';

const T0 = Date.UTC(2024, 5, 4, 12, 0, 0);
const INSTR = INSTRUMENTS.filter((i) => ['BTC', 'ETH', 'USDT', 'AAPL'].includes(i.symbol));

describe('the shared market snapshot', () => {
  let now = T0;
  const clock = () => now;
  const simulator = (origin: MarketOrigin, instruments = INSTR) =>
    new MarketSimulator({
      seed: origin.seed,
      liveStart: origin.liveStart,
      now: clock,
      alwaysOpen: true,
      backfillDays: 1,
      instruments,
      maxCatchUpSteps: Number.POSITIVE_INFINITY,
    });

  async function join(bus: FakeTickBus, lease: FakeLeaseStore, id: string, instruments = INSTR) {
    const sims: MarketSimulator[] = [];
    const source = await RedisTickSource.connect({
      bus,
      lease,
      processId: id,
      ttlMs: 60_000,
      seed: 'snap',
      now: clock,
      originWaitMs: 100,
      createLocal: (origin) => {
        const sim = simulator(origin, instruments);
        sims.push(sim);
        return { source: sim, simulator: sim };
      },
    });
    const feed = new MarketFeed(source, clock);
    feed.start();
    return { source, feed, sim: sims[0] as MarketSimulator };
  }

  const view = (feed: MarketFeed) =>
    INSTR.map((i) => ({
      quote: feed.quote(i.symbol),
      candles: ['1min', '5min', '60min', '1day', '1week', '1mon'].map((p) =>
        feed.candles(i.symbol, p as '1min', 3_000),
      ),
      trades: feed.trades(i.symbol, 400),
    }));

  it('a restored simulator takes exactly the steps the original takes', () => {
    now = T0 + 3_600_000;
    const origin = { seed: 'snap', liveStart: T0 };
    const a = simulator(origin);
    a.advanceTo(now);
    const b = simulator(origin);
    b.restore(JSON.parse(JSON.stringify(a.snapshot())));
    const fromA: Tick[] = [];
    const fromB: Tick[] = [];
    a.subscribe((t) => fromA.push(t));
    b.subscribe((t) => fromB.push(t));
    now += 600_000;
    a.advanceTo(now);
    b.advanceTo(now);
    expect(fromB).toHaveLength(600 * INSTR.length);
    expect(fromB).toEqual(fromA);
    expect(() => simulator(origin, INSTR.slice(1)).restore(a.snapshot())).toThrow(/another market/);
  });

  it('a feed rebuilt from its state serves the same and extends its bars the same', () => {
    now = T0 + 2 * 86_400_000;
    const a = new MarketFeed(simulator({ seed: 'snap', liveStart: T0 }), clock);
    a.source.start();
    (a.source as MarketSimulator).advanceTo(now);
    // The far past before the history is not in the state: as in a follower, a simulator of the same origin gives it.
    const twin = simulator({ seed: 'snap', liveStart: T0 });
    const source = { instruments: INSTR, subscribe: () => () => {}, start() {}, stop() {} };
    const b = new MarketFeed({ ...source, history: (symbol, timeframe) => twin.history(symbol, timeframe) }, clock);
    b.importState(JSON.parse(JSON.stringify(a.exportState())));
    expect(view(b)).toEqual(view(a));
    a.source.stop();
  });

  it('without a snapshot a follower replays from the origin, and serves the same', async () => {
    now = T0;
    const bus = new FakeTickBus();
    const lease = new FakeLeaseStore(clock);
    const a = await join(bus, lease, 'a');
    // The lease renewal start() set off runs at T0 (one still in flight would write a snapshot at the later clock).
    await new Promise((resolve) => setImmediate(resolve));
    now += 600_000;
    a.sim.advanceTo(now);
    bus.snapshot = undefined;
    const b = await join(bus, lease, 'b');
    expect(b.source.startup?.from).toBe('origin');
    expect(view(b.feed)).toEqual(view(a.feed));
    await b.source.close();
    // The leader's next renewal writes one; another market's snapshot, or one of other instruments, is not used.
    await a.source.checkLease();
    const c = await join(bus, lease, 'c');
    expect(c.source.startup?.from).toBe('snapshot');
    expect(decodeSnapshot(bus.snapshot ?? '', { seed: 'snap', liveStart: T0 + 60_000 })).toBeUndefined();
    expect(decodeSnapshot('{"version":1}', { seed: 'snap', liveStart: T0 })).toBeUndefined();
    const d = await join(bus, lease, 'd', INSTR.slice(0, 2));
    expect(d.source.startup?.from).toBe('origin');
    for (const s of [a, c, d]) await s.source.close();
  });
});
