import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { MarketFeed } from '../../server/market/feed';
import { INSTRUMENTS } from '../../server/market/instruments';
import { FakeLeaseStore, FakeTickBus } from '../../server/market/shared/fakes';
import { connectSharedSource, marketKeys, RedisTickBus } from '../../server/market/shared/redis-bus';
import { type MarketOrigin, RedisTickSource } from '../../server/market/shared/redis-tick-source';
import { encodeSnapshot } from '../../server/market/shared/snapshot';
import { MarketSimulator, type Tick } from '../../server/market/simulator';

const REDIS_URL = process.env.TEST_REDIS_URL;
const TTL = 2_000;
const DAY = 86_400_000;
const HOUR = 3_600_000;
// A coin and a stock: both kinds of history, at a test's cost (the month is built tick by tick).
const INSTR = INSTRUMENTS.filter((i) => ['BTC', 'AAPL'].includes(i.symbol));

/**
 * A market that has run for 30 days, over Redis: its leader is gone, a new process takes the lease and leads from
 * the leader's snapshot (the next sequence numbers of the same walk), and a process that joins after it serves the
 * same market within moments. The month is simulated on a fake clock and in memory (server/market/shared/fakes.ts)
 * up to the real now, then its last snapshot and origin go to Redis as its leader would have written them.
 */
describe.runIf(REDIS_URL)('a month-old shared market over Redis', () => {
  const url = REDIS_URL ?? '';
  const prefix = `test:${randomUUID()}:`;
  const opened: RedisTickSource[] = [];
  afterAll(async () => {
    for (const source of opened.splice(0)) await source.close();
    const client = createClient({ url });
    await client.connect();
    await client.del(Object.values(marketKeys(prefix)));
    await client.close();
  });

  const simulator = (origin: MarketOrigin, now?: () => number) =>
    new MarketSimulator({
      seed: origin.seed,
      liveStart: origin.liveStart,
      instruments: INSTR,
      alwaysOpen: true,
      maxCatchUpSteps: Number.POSITIVE_INFINITY,
      ...(now ? { now } : {}),
    });

  async function join(processId: string) {
    const source = await connectSharedSource({
      url,
      prefix,
      processId,
      ttlMs: TTL,
      seed: 'month-it',
      createLocal: (origin) => {
        const sim = simulator(origin);
        return { source: sim, simulator: sim };
      },
    });
    opened.push(source);
    const feed = new MarketFeed(source);
    feed.start();
    return { source, feed };
  }

  it('a new leader and a late follower start from the snapshot and continue the walk', async () => {
    // The month: a leader on a simulated clock, from 30 days ago to now.
    const origin: MarketOrigin = { seed: 'month-it', liveStart: Math.floor((Date.now() - 30 * DAY) / 60_000) * 60_000 };
    let now = origin.liveStart;
    const clock = () => now;
    const bus = new FakeTickBus();
    bus.origin = origin;
    const month = simulator(origin, clock);
    const old = await RedisTickSource.connect({
      bus,
      lease: new FakeLeaseStore(clock),
      processId: 'old',
      ttlMs: 2 * HOUR,
      seed: origin.seed,
      now: clock,
      snapshotEveryMs: DAY,
      createLocal: () => ({ source: month, simulator: month }),
    });
    const oldFeed = new MarketFeed(old, clock);
    oldFeed.start();
    await new Promise((resolve) => setImmediate(resolve));
    const end = Math.floor(Date.now() / 1_000) * 1_000;
    while (now < end) {
      now = Math.min(now + HOUR, end);
      month.advanceTo(now);
      await old.checkLease();
    }
    await old.close();
    const seqs = Object.fromEntries(INSTR.map((i) => [i.symbol, oldFeed.quote(i.symbol)?.seq ?? 0]));
    const client = createClient({ url });
    await client.connect();
    const redisBus = new RedisTickBus(client, client, marketKeys(prefix));
    await redisBus.writeOrigin(origin, TTL * 3);
    await redisBus.writeSnapshot(
      encodeSnapshot({
        version: 1,
        origin,
        takenAt: now,
        seqs,
        simulator: month.snapshot(),
        feed: oldFeed.exportState(),
      }),
      TTL * 3,
    );
    await client.close();

    // Its leader is gone: a new process takes over from the snapshot.
    let started = performance.now();
    const a = await join('a');
    console.log(`new leader serving after ${Math.round(performance.now() - started)} ms:`, a.source.startup);
    expect(a.source.isLeader).toBe(true);
    expect(a.source.startup?.from).toBe('snapshot');
    // Only the steps since the snapshot, however long building the month took (the month would be millions).
    const steps = (startup: RedisTickSource['startup']) => ((startup?.snapshotAgeMs ?? 0) / 1_000 + 1) * INSTR.length;
    expect(a.source.startup?.replayedTicks).toBeLessThanOrEqual(steps(a.source.startup));
    const reference: Tick[] = [];
    month.subscribe((tick) => reference.push(tick));

    await new Promise((resolve) => setTimeout(resolve, 1_500));
    started = performance.now();
    const b = await join('b');
    const ms = performance.now() - started;
    console.log(`late follower serving after ${Math.round(ms)} ms:`, b.source.startup);
    expect(b.source.isLeader).toBe(false);
    expect(b.source.startup?.from).toBe('snapshot');
    expect(b.source.startup?.replayedTicks).toBeLessThanOrEqual(steps(b.source.startup));
    // Generous (a loaded machine): the replay it replaces took several seconds for these two instruments.
    expect(ms).toBeLessThan(15_000);

    const view = (feed: MarketFeed) =>
      JSON.stringify(
        INSTR.map((i) => ({ quote: feed.quote(i.symbol), hours: feed.candles(i.symbol, '60min', 1_000) })),
      );
    // After the next tick both serve the same market, the month's candles included.
    const seq = b.feed.quote('BTC')?.seq ?? 0;
    await expect.poll(() => b.feed.quote('BTC')?.seq ?? 0, { timeout: 5_000 }).toBeGreaterThan(seq);
    await expect.poll(() => view(b.feed) === view(a.feed), { timeout: 5_000, interval: 5 }).toBe(true);
    expect(b.feed.candles('BTC', '60min', 1_000).length).toBeGreaterThan(36 * 24);

    // The new leader's ticks are the month's walk, continued: the same seq and price as the old simulator's.
    const quote = a.feed.quote('BTC');
    month.advanceTo(quote?.ts ?? 0);
    const same = reference.find((t) => t.symbol === 'BTC' && t.seq === quote?.seq);
    expect(same?.ts).toBe(quote?.ts);
    expect(quote?.last).toBe((Number(same?.price) / 100).toFixed(2));
    expect(quote?.seq).toBeGreaterThan(seqs.BTC ?? 0);
    // Building the month (several seconds, more on a loaded machine) is most of this test's time.
  }, 120_000);
});
