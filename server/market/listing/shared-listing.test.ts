import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../migrations';
import { type DatabaseHandle, openSqlite } from '../../platform/db/connect';
import { MarketFeed } from '../feed';
import { INSTRUMENTS, listings } from '../instruments';
import { FakeLeaseStore, FakeTickBus } from '../shared/fakes';
import { RedisTickSource } from '../shared/redis-tick-source';
import { MarketSimulator, type Tick } from '../simulator';
import { listCoin, loadListedCoins } from './coins';
import { InstrumentListings } from './registry';
import { ListingWatcher } from './watcher';

const T0 = Date.UTC(2024, 5, 4, 12, 0, 30);
const TTL = 60_000;
const INSTR = INSTRUMENTS.filter((i) => ['BTC', 'AAPL'].includes(i.symbol));
const STATIC = new Set(INSTRUMENTS.map((i) => i.symbol));

/**
 * A coin listed in a shared market (REDIS_URL, here over the in-memory bus): the process that lists it serves it at
 * once; another process drops its ticks until its poll of `listed_coins` registers it, then serves the same market;
 * a process joining later (from the leader's snapshot, with or without the coin) and a new leader after a failover
 * continue its walk. Each "process" has its own registry of listed coins, as separate processes would.
 */
describe('a coin listed in a shared market', () => {
  let handle: DatabaseHandle;
  let now = T0;
  const clock = () => now;
  const bus = new FakeTickBus();
  const lease = new FakeLeaseStore(clock);
  const opened: { source: RedisTickSource; watcher: ListingWatcher }[] = [];
  beforeAll(async () => {
    handle = openSqlite(':memory:');
    await migrateToLatest(handle);
  });
  afterAll(async () => {
    for (const { source, watcher } of opened.splice(0)) {
      watcher.close();
      await source.close();
    }
    await handle.db.destroy();
  });

  /** One server process: its registry (loaded from the table at start, as main.ts does), its feed, its watcher. */
  async function join(id: string, registry: InstrumentListings) {
    await loadListedCoins(handle.db, registry);
    const sims: MarketSimulator[] = [];
    const source = await RedisTickSource.connect({
      bus,
      lease,
      processId: id,
      ttlMs: TTL,
      seed: 'shared-listing',
      now: clock,
      originWaitMs: 100,
      snapshotEveryMs: 10_000,
      createLocal: (origin) => {
        const simulator = new MarketSimulator({
          seed: origin.seed,
          liveStart: origin.liveStart,
          now: clock,
          alwaysOpen: true,
          backfillDays: 1,
          instruments: INSTR,
          listed: registry.all(),
          maxCatchUpSteps: Number.POSITIVE_INFINITY,
        });
        sims.push(simulator);
        return { source: simulator, simulator };
      },
    });
    const feed = new MarketFeed(source, clock);
    const watcher = new ListingWatcher(handle.db, feed, { registry });
    feed.start();
    opened.push({ source, watcher });
    return { source, feed, watcher, sim: sims[0] as MarketSimulator };
  }

  const view = (feed: MarketFeed, symbol: string) => ({
    quote: feed.quote(symbol),
    candles: feed.candles(symbol, '1min', 100),
    trades: feed.trades(symbol, 200),
  });

  it('the follower drops its ticks until its poll, then serves the same coin; later processes and a new leader too', async () => {
    // Process A lists (its registry is this module's, which listCoin writes to); B is another process.
    const a = await join('a', listings);
    const b = await join('b', new InstrumentListings((s) => STATIC.has(s)));
    expect(a.source.isLeader).toBe(true);
    expect(b.source.isLeader).toBe(false);
    /** The leader's next `seconds` steps (the clock back on the whole second after the listing's odd time). */
    const step = (seconds: number) => {
      for (let k = 0; k < seconds; k++) {
        now = Math.floor(now / 1_000) * 1_000 + 1_000;
        a.sim.advanceTo(now);
      }
    };
    step(10);

    // What B's source passes on of the coin (its feed applies exactly these).
    const passed: Tick[] = [];
    b.feed.onTick((tick) => {
      if (tick.symbol === 'IEO1') passed.push(tick);
    });
    const listedAt = now + 250;
    now = listedAt;
    await listCoin(handle.db, { symbol: 'IEO1', name: 'IEO One', startPrice: '0.08', listedAt });
    // A serves it at once: its listing trade at the listing price, published to the bus like any tick.
    expect(a.feed.quote('IEO1')).toMatchObject({ last: '0.080000', ts: listedAt, seq: 1 });
    step(5);
    expect(a.feed.quote('IEO1')?.seq).toBe(6);
    // B has heard its ticks but does not know the coin yet: dropped, nothing served, nothing broken.
    expect(b.feed.instrument('IEO1')).toBeUndefined();
    expect(b.feed.quote('IEO1')).toBeUndefined();
    expect(passed).toEqual([]);
    expect(b.feed.quote('BTC')).toEqual(a.feed.quote('BTC'));

    // B's poll: from then on it serves the coin, its history since the listing included, as A does.
    await b.watcher.poll();
    expect(view(b.feed, 'IEO1')).toEqual(view(a.feed, 'IEO1'));
    expect(passed.map((t) => t.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    step(20);
    expect(view(b.feed, 'IEO1')).toEqual(view(a.feed, 'IEO1'));
    expect(b.feed.quote('IEO1')).toMatchObject({ ts: now, seq: 26 });

    // C starts now, knowing the coin from the table; the leader's snapshot is older than the listing.
    expect(bus.snapshot).not.toContain('IEO1');
    const c = await join('c', new InstrumentListings((s) => STATIC.has(s)));
    expect(c.source.startup?.from).toBe('snapshot');
    expect(view(c.feed, 'IEO1')).toEqual(view(a.feed, 'IEO1'));
    // A newer snapshot has the coin in it: D starts from that one.
    now += 10_000;
    a.sim.advanceTo(now);
    await a.source.checkLease();
    expect(bus.snapshot).toContain('IEO1');
    const d = await join('d', new InstrumentListings((s) => STATIC.has(s)));
    expect(d.source.startup?.from).toBe('snapshot');
    step(3);
    for (const p of [b, c, d]) expect(view(p.feed, 'IEO1')).toEqual(view(a.feed, 'IEO1'));

    // A goes; B takes the lease and continues the coin's walk with the next sequence numbers.
    const last = a.feed.quote('IEO1')?.seq ?? 0;
    await a.source.close();
    await b.source.checkLease();
    expect(b.source.isLeader).toBe(true);
    for (let k = 0; k < 5; k++) {
      now += 1_000;
      b.sim.advanceTo(now);
    }
    expect(b.feed.quote('IEO1')).toMatchObject({ ts: now, seq: last + 5 });
    for (const p of [c, d]) expect(view(p.feed, 'IEO1')).toEqual(view(b.feed, 'IEO1'));

    // The same walk a simulator that had the coin from its start takes: the walk does not depend on who learnt when.
    const reference = new MarketSimulator({
      seed: 'shared-listing',
      liveStart: Math.floor(T0 / 60_000) * 60_000,
      now: clock,
      alwaysOpen: true,
      backfillDays: 1,
      instruments: INSTR,
      listed: listings.all().filter((l) => l.instrument.symbol === 'IEO1'),
      maxCatchUpSteps: Number.POSITIVE_INFINITY,
    });
    const refFeed = new MarketFeed(reference, clock);
    reference.advanceTo(now);
    expect(view(b.feed, 'IEO1')).toEqual(view(refFeed, 'IEO1'));
  });
});
