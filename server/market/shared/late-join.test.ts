import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketFeed } from '../feed';
import { INSTRUMENTS } from '../instruments';
import { MarketSimulator, type Tick } from '../simulator';
import { FakeLeaseStore, FakeTickBus } from './fakes';
import { type MarketOrigin, RedisTickSource } from './redis-tick-source';

/**
 * A market that has run for a simulated 30 days (the simulator's clock, no waiting): a process that joins it late
 * serves it from the leader's snapshot, and a new leader continues the walk with the next sequence numbers.
 * Before the snapshot, joining this market replayed 30 days of 1-second steps (about 1.7 s of start-up per day
 * with every instrument).
 *
 * The tests below run in order on the one market built in beforeAll (building it is the slow part: every one of
 * the 30 days' ticks goes through the leader's feed).
 */
const DAY = 86_400_000;
const T0 = Date.UTC(2024, 5, 3, 12, 0, 0);
// Longer than the build's hour between two renewals (the lease runs on the simulated clock too).
const TTL = 2 * 3_600_000;
// One instrument that trades around the clock and one in NYSE hours: both kinds of history, at a test's cost.
// T0 + 30 days is a Wednesday 08:00 in New York: in the tests' seconds only BTC trades, one tick per step.
const INSTR = INSTRUMENTS.filter((i) => ['BTC', 'AAPL'].includes(i.symbol));
const ORIGIN: MarketOrigin = { seed: 'month', liveStart: T0 };

describe('a shared market that has run for 30 days', () => {
  let now = T0;
  const clock = () => now;
  const bus = new FakeTickBus();
  const lease = new FakeLeaseStore(clock);
  const opened: RedisTickSource[] = [];
  /** Every (symbol, seq) published after the build, with its price: no seq may come back with another price. */
  const record = new Map<string, number>();
  let reused = 0;

  const simulatorFor = (origin: MarketOrigin) =>
    new MarketSimulator({
      seed: origin.seed,
      liveStart: origin.liveStart,
      now: clock,
      backfillDays: 7,
      instruments: INSTR,
      maxCatchUpSteps: Number.POSITIVE_INFINITY,
    });

  async function join(id: string) {
    const sims: MarketSimulator[] = [];
    const source = await RedisTickSource.connect({
      bus,
      lease,
      processId: id,
      ttlMs: TTL,
      seed: ORIGIN.seed,
      now: clock,
      originWaitMs: 100,
      // A day between snapshots while the month is built (the build renews the lease every simulated hour);
      // the leader writes one at exactly 30 days, and the late process joins seconds after it.
      snapshotEveryMs: DAY,
      createLocal: (origin) => {
        const simulator = simulatorFor(origin);
        sims.push(simulator);
        return { source: simulator, simulator };
      },
    });
    opened.push(source);
    const feed = new MarketFeed(source, clock);
    feed.start();
    return { source, feed, sim: sims[0] as MarketSimulator };
  }

  const view = (feed: MarketFeed) =>
    INSTR.map((i) => ({
      quote: feed.quote(i.symbol),
      minutes: feed.candles(i.symbol, '1min', 3_000),
      hours: feed.candles(i.symbol, '60min', 1_000),
      days: feed.candles(i.symbol, '1day', 500),
      // Far back (the simulator's far past, which each process builds from the origin) and joined to the snapshot's.
      weeks: feed.candles(i.symbol, '1week', 1_000),
      months: feed.candles(i.symbol, '1mon', 1_000),
      trades: feed.trades(i.symbol, 200),
    }));

  /** One live step of whichever process leads. */
  const step = (sim: MarketSimulator) => {
    now += 1_000;
    sim.advanceTo(now);
  };

  let a: Awaited<ReturnType<typeof join>>;
  let b: Awaited<ReturnType<typeof join>>;
  /** A's simulator, stepped on after A is gone: the walk as it would have gone on without a failover. */
  const reference: Tick[] = [];

  beforeAll(async () => {
    now = T0;
    a = await join('a');
    expect(a.source.isLeader).toBe(true);
    expect(bus.origin).toEqual(ORIGIN);
    // Lets the lease renewal that start() set off finish at T0 (a renewal still in flight would be shared by the
    // first checkLease below and not extend the lease to the build's clock).
    await new Promise((resolve) => setImmediate(resolve));
    const built = performance.now();
    while (now < T0 + 30 * DAY) {
      now = Math.min(now + 3_600_000, T0 + 30 * DAY);
      a.sim.advanceTo(now);
      await a.source.checkLease();
      // Lets the snapshot write settle: one still in flight at the next renewal would put that day's off by an hour.
      await new Promise((resolve) => setImmediate(resolve));
    }
    console.log(`built 30 simulated days in ${Math.round(performance.now() - built)} ms, ${bus.published} ticks`);
    // From here on every published tick goes into the record check.
    bus.handlers.add((tick) => {
      const key = `${tick.symbol}:${tick.seq}`;
      const price = record.get(key);
      if (price !== undefined && price !== tick.price) reused++;
      record.set(key, tick.price);
    });
    a.sim.subscribe((tick) => reference.push(tick));
  }, 120_000);

  afterAll(async () => {
    for (const s of opened.splice(0)) await s.close();
  });

  it('a late process serves the same quotes and candles within moments, from the snapshot', async () => {
    for (let i = 0; i < 5; i++) step(a.sim);
    const started = performance.now();
    b = await join('b');
    const ms = performance.now() - started;
    const startup = b.source.startup;
    console.log(`late process serving after ${Math.round(ms)} ms:`, JSON.stringify(startup));

    expect(b.source.isLeader).toBe(false);
    // Behaviour, not timing: it started from the snapshot and replayed only the 5 steps since it was taken
    // (from the origin it would have replayed 30 days plus the 7 days of history: millions of ticks).
    expect(startup).toMatchObject({ from: 'snapshot', snapshotAgeMs: 5_000 });
    expect(startup?.replayedTicks).toBe(5);
    expect(view(b.feed)).toEqual(view(a.feed));
    expect(b.feed.candles('BTC', '1min', 3_000)).toHaveLength(2_880);
    expect(b.feed.candles('BTC', '60min', 1_000).length).toBeGreaterThan(36 * 24);
    expect(b.feed.candles('AAPL', '1mon', 300)).toHaveLength(300);

    // The next tick: the same last price and sequence number as the leader.
    step(a.sim);
    expect(b.feed.quote('BTC')).toEqual(a.feed.quote('BTC'));
    expect(b.feed.quote('BTC')?.seq).toBe(a.feed.quote('BTC')?.seq);
    expect(b.feed.quote('BTC')?.ts).toBe(now);
    // A generous bound (a loaded CI machine, a 2-core box running other suites): the replay it replaces took
    // seconds for these two instruments and close to a minute for the full instrument list.
    expect(ms).toBeLessThan(15_000);
  });

  it('the late process takes over when the leader goes and continues the walk with the next sequence numbers', async () => {
    const lastSeq = b.feed.quote('BTC')?.seq ?? 0;
    await a.source.close();
    await b.source.checkLease();
    expect(b.source.isLeader).toBe(true);
    const from = bus.published;
    for (let i = 0; i < 10; i++) step(b.sim);
    expect(bus.published - from).toBe(10);
    expect(b.feed.quote('BTC')?.seq).toBe(lastSeq + 10);
    // The same walk as if A had never stopped.
    a.sim.advanceTo(now);
    const published = (await bus.recent()).slice(-10);
    expect(published).toEqual(reference.slice(-10));
    expect(reused).toBe(0);
  });

  it('a new process that finds no leader leads from the snapshot, with the next sequence numbers', async () => {
    await b.source.close();
    const lastSeq = (await bus.recent()).filter((t) => t.symbol === 'BTC').at(-1)?.seq ?? 0;
    // Twenty seconds with no leader: nothing is published; the new leader generates those steps again.
    now += 20_000;
    const c = await join('c');
    expect(c.source.isLeader).toBe(true);
    expect(c.source.startup).toMatchObject({ from: 'snapshot' });
    expect(c.source.startup?.replayedTicks).toBeLessThan(100);
    expect(c.feed.quote('BTC')?.seq).toBe(lastSeq + 20);
    step(c.sim);
    const tick = (await bus.recent()).at(-1);
    expect(tick).toMatchObject({ symbol: 'BTC', seq: lastSeq + 21, ts: now });
    a.sim.advanceTo(now);
    expect(tick).toEqual(reference.at(-1));
    expect(c.feed.quote('BTC')).toMatchObject({ seq: lastSeq + 21 });
    expect(reused).toBe(0);
  });
});
