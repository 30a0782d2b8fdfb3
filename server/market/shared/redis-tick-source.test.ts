import { afterEach, describe, expect, it } from 'vitest';
import { MarketFeed } from '../feed';
import { INSTRUMENTS } from '../instruments';
import { CompositePriceSource } from '../live/composite';
import { TickListeners } from '../live/tick-listeners';
import { MarketSimulator, type PriceSource, type Tick } from '../simulator';
import { FakeLeaseStore, FakeTickBus } from './fakes';
import { type MarketOrigin, parseTick, RedisTickSource } from './redis-tick-source';

const T0 = Date.UTC(2024, 5, 4, 12, 0, 30);
const TTL = 60_000;
const INSTR = INSTRUMENTS.filter((i) => ['BTC', 'ETH', 'USDT', 'AAPL'].includes(i.symbol));

describe('shared market over a tick bus', () => {
  let now = T0;
  const clock = () => now;
  const opened: RedisTickSource[] = [];
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
    now = T0;
  });

  const simulatorFor = (origin: MarketOrigin) =>
    new MarketSimulator({
      seed: origin.seed,
      liveStart: origin.liveStart,
      now: clock,
      alwaysOpen: true,
      backfillDays: 1,
      instruments: INSTR,
      maxCatchUpSteps: Number.POSITIVE_INFINITY,
    });

  async function join(bus: FakeTickBus, lease: FakeLeaseStore, id: string) {
    const sims: MarketSimulator[] = [];
    const source = await RedisTickSource.connect({
      bus,
      lease,
      processId: id,
      ttlMs: TTL,
      seed: 'shared',
      now: clock,
      originWaitMs: 100,
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

  const snapshot = (feed: MarketFeed) =>
    INSTR.map((i) => ({
      quote: feed.quote(i.symbol),
      candles: feed.candles(i.symbol, '1min', 3_000),
      trades: feed.trades(i.symbol, 200),
    }));

  it("a follower's market equals the leader's: history, a late start and every live tick", async () => {
    const bus = new FakeTickBus();
    const lease = new FakeLeaseStore(clock);
    const a = await join(bus, lease, 'a');
    expect(a.source.isLeader).toBe(true);
    expect(bus.origin).toEqual({ seed: 'shared', liveStart: Date.UTC(2024, 5, 4, 12, 0, 0) });

    // The leader runs for 10 minutes before B starts: B replays them from the origin.
    for (let step = 0; step < 60; step++) {
      now += 10_000;
      a.sim.advanceTo(now);
      await a.source.checkLease();
    }
    const b = await join(bus, lease, 'b');
    expect(b.source.isLeader).toBe(false);
    expect(snapshot(b.feed)).toEqual(snapshot(a.feed));

    const seen: Tick[] = [];
    b.feed.onTick((tick) => seen.push(tick));
    for (let i = 0; i < 30; i++) {
      now += 1_000;
      a.sim.advanceTo(now);
    }
    expect(seen).toHaveLength(30 * INSTR.length);
    expect(snapshot(b.feed)).toEqual(snapshot(a.feed));
    expect(b.feed.quote('BTC')?.ts).toBe(now);
  });

  it("ignores an earlier market's recent ticks", async () => {
    const bus = new FakeTickBus();
    const lease = new FakeLeaseStore(clock);
    const stale = { symbol: 'BTC', instrumentId: 1, ts: T0 - 86_400_000, price: 1, qty: 1, side: 'buy', seq: 9e9 };
    bus.list.push(JSON.stringify(stale));
    const a = await join(bus, lease, 'a');
    expect(bus.list).toEqual([]);
    bus.list.push(JSON.stringify(stale));
    const b = await join(bus, lease, 'b');
    expect(b.feed.quote('BTC')).toEqual(a.feed.quote('BTC'));
    expect(b.feed.quote('BTC')?.seq).toBeLessThan(9e9);
  });

  it('a follower takes over when the leader stops and continues its walk with the next sequence numbers', async () => {
    const bus = new FakeTickBus();
    const lease = new FakeLeaseStore(clock);
    const a = await join(bus, lease, 'a');
    const b = await join(bus, lease, 'b');
    const reference = simulatorFor({ seed: 'shared', liveStart: Date.UTC(2024, 5, 4, 12, 0, 0) });
    const refFeed = new MarketFeed(reference, clock);
    for (let i = 0; i < 20; i++) {
      now += 1_000;
      a.sim.advanceTo(now);
    }
    await a.source.close();
    await b.source.checkLease();
    expect(b.source.isLeader).toBe(true);
    const published = bus.published;
    for (let i = 0; i < 20; i++) {
      now += 1_000;
      b.sim.advanceTo(now);
    }
    expect(bus.published - published).toBe(20 * INSTR.length);
    reference.advanceTo(now);
    // Same walk as if A had never stopped.
    expect(snapshot(b.feed)).toEqual(snapshot(refFeed));
  });

  it('drops repeated and stale ticks, and keeps sequence numbers rising across leaders', async () => {
    const bus = new FakeTickBus();
    const lease = new FakeLeaseStore(clock);
    const a = await join(bus, lease, 'a');
    const b = await join(bus, lease, 'b');
    now += 1_000;
    a.sim.advanceTo(now);
    const last = b.feed.quote('BTC');
    const tick = (await bus.recent()).find((t) => t.symbol === 'BTC') as Tick;
    for (const handler of bus.handlers) handler({ ...tick, price: tick.price + 1 });
    expect(b.feed.quote('BTC')).toEqual(last);
  });

  it('keeps sequence numbers rising when a new leader restarts a live source that counts from 1', async () => {
    const bus = new FakeTickBus();
    const lease = new FakeLeaseStore(clock);
    const eth = INSTR.find((i) => i.symbol === 'ETH') as (typeof INSTR)[number];
    const lives: TickListeners[] = [];
    const withLive = async (id: string) => {
      const source = await RedisTickSource.connect({
        bus,
        lease,
        processId: id,
        ttlMs: TTL,
        seed: 'shared',
        now: clock,
        createLocal: (origin) => {
          const simulator = simulatorFor(origin);
          const listeners = new TickListeners();
          lives.push(listeners);
          const live: PriceSource = {
            instruments: [eth],
            subscribe: (fn, symbol) => listeners.add(fn, symbol),
            start: () => {},
            stop: () => {},
          };
          return { source: new CompositePriceSource(simulator, live), simulator };
        },
      });
      opened.push(source);
      const feed = new MarketFeed(source, clock);
      feed.start();
      return { source, feed };
    };
    const a = await withLive('a');
    const b = await withLive('b');
    const ethTick = (seq: number): Tick => ({
      symbol: 'ETH',
      instrumentId: eth.id,
      ts: now,
      price: 350_000 + seq,
      qty: 10,
      side: 'buy',
      seq,
    });
    for (const seq of [1, 2, 3]) lives[0]?.publish(ethTick(seq));
    expect(b.feed.quote('ETH')?.seq).toBe(3);
    await a.source.close();
    await b.source.checkLease();
    expect(b.source.isLeader).toBe(true);
    lives[1]?.publish(ethTick(1));
    expect(b.feed.quote('ETH')).toMatchObject({ seq: 4, last: '3500.01' });
    expect((await bus.recent()).at(-1)?.seq).toBe(4);
  });

  it('a follower with no leader origin gives up with a clear error', async () => {
    const bus = new FakeTickBus();
    const lease = new FakeLeaseStore(clock);
    let real = Date.now();
    now = real;
    await lease.acquire('someone-else', TTL);
    const source = RedisTickSource.connect({
      bus,
      lease,
      processId: 'b',
      ttlMs: TTL,
      seed: 'shared',
      now: () => {
        real = Date.now();
        return real;
      },
      originWaitMs: 100,
      createLocal: (origin) => {
        const simulator = simulatorFor(origin);
        return { source: simulator, simulator };
      },
    });
    await expect(source).rejects.toThrow(/origin/);
    expect(bus.handlers.size).toBe(0);
  });

  it('reads only integer ticks', () => {
    const tick = { symbol: 'BTC', instrumentId: 1, ts: 1, price: 6_500_000, qty: 3, side: 'buy', seq: 7 };
    expect(parseTick(JSON.stringify(tick))).toEqual(tick);
    expect(parseTick(JSON.stringify({ ...tick, price: 65_000.5 }))).toBeUndefined();
    expect(parseTick(JSON.stringify({ ...tick, side: 'hold' }))).toBeUndefined();
    expect(parseTick('not json')).toBeUndefined();
  });
});
