import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSharedSource,
  INSTRUMENTS,
  InstrumentListings,
  ListingWatcher,
  listCoin,
  listings,
  loadListedCoins,
  MarketFeed,
  type MarketOrigin,
  MarketSimulator,
  marketKeys,
  type RedisTickSource,
  type Tick,
} from '../../server/market';
import { openTestDatabase, type TestDatabase } from './harness';

const REDIS_URL = process.env.TEST_REDIS_URL;
const TTL = 600;
const INSTR = INSTRUMENTS.filter((i) => ['BTC', 'ETH'].includes(i.symbol));
const STATIC = new Set(INSTRUMENTS.map((i) => i.symbol));

/**
 * Two server processes sharing one market over Redis (in one test process: each with its own registry of listed
 * coins, as two processes would have). The leader's process lists a coin and serves it at once; the follower's
 * process hears the coin's ticks over Redis and drops them until its poll of `listed_coins` registers the coin, and
 * from then on serves the same quote, candles and trades as the leader. Real timers: the leader steps every 100 ms.
 */
describe.runIf(REDIS_URL)('a coin listed in a market shared over Redis', () => {
  const url = REDIS_URL ?? '';
  const prefix = `test:${randomUUID()}:`;
  const opened: { source: RedisTickSource; feed: MarketFeed; watcher: ListingWatcher }[] = [];
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
  });
  afterAll(async () => {
    for (const { source, feed, watcher } of opened.splice(0)) {
      watcher.close();
      feed.close();
      await source.close();
    }
    const client = createClient({ url });
    await client.connect();
    await client.del(Object.values(marketKeys(prefix)));
    await client.close();
    await database?.close();
  });

  /** One server process as main.ts and app.ts set it up: listed coins loaded, the shared feed, the listing watcher. */
  async function join(processId: string, registry: InstrumentListings) {
    await loadListedCoins(database.handle.db, registry);
    const source = await connectSharedSource({
      url,
      prefix,
      processId,
      ttlMs: TTL,
      seed: 'listing-shared-it',
      createLocal: (origin: MarketOrigin) => {
        const simulator = new MarketSimulator({
          seed: origin.seed,
          liveStart: origin.liveStart,
          alwaysOpen: true,
          backfillDays: 1,
          stepMs: 100,
          instruments: INSTR,
          listed: registry.all(),
          maxCatchUpSteps: Number.POSITIVE_INFINITY,
        });
        return { source: simulator, simulator };
      },
    });
    const feed = new MarketFeed(source);
    const watcher = new ListingWatcher(database.handle.db, feed, { registry });
    feed.start();
    opened.push({ source, feed, watcher });
    return { source, feed, watcher };
  }

  const view = (feed: MarketFeed, symbol: string) =>
    JSON.stringify({
      quote: feed.quote(symbol),
      candles: feed.candles(symbol, '1min', 100),
      trades: feed.trades(symbol, 200),
    });

  it('the follower serves the coin after its poll, the same as the leader', async () => {
    const a = await join('a', listings);
    const b = await join('b', new InstrumentListings((s) => STATIC.has(s)));
    expect(a.source.isLeader).toBe(true);
    expect(b.source.isLeader).toBe(false);
    await expect.poll(() => b.feed.quote('BTC')?.seq ?? 0, { timeout: 5_000 }).toBeGreaterThan(5);
    const passed: Tick[] = [];
    b.feed.onTick((tick) => {
      if (tick.symbol === 'SHRD') passed.push(tick);
    });

    await listCoin(database.handle.db, { symbol: 'SHRD', name: 'Shared', startPrice: '0.25', listedAt: Date.now() });
    expect(a.feed.quote('SHRD')?.last).toBe('0.25000');
    await expect.poll(() => a.feed.quote('SHRD')?.seq ?? 0, { timeout: 5_000 }).toBeGreaterThan(5);
    // B has had the coin's ticks from Redis by the time it has a later BTC tick (one channel, in order): dropped.
    const heardUpTo = a.feed.quote('SHRD')?.ts ?? 0;
    await expect.poll(() => b.feed.quote('BTC')?.ts ?? 0, { timeout: 5_000 }).toBeGreaterThan(heardUpTo);
    expect(b.feed.instrument('SHRD')).toBeUndefined();
    expect(b.feed.quote('SHRD')).toBeUndefined();
    expect(passed).toEqual([]);

    await b.watcher.poll();
    expect(b.feed.instrument('SHRD')).toMatchObject({ id: a.feed.instrument('SHRD')?.id, startPrice: '0.25000' });
    // Its history since the listing at once (its own replay of the walk), then the leader's ticks: the same market.
    expect(passed[0]).toMatchObject({ seq: 1, price: 25_000 });
    await expect.poll(() => view(b.feed, 'SHRD') === view(a.feed, 'SHRD'), { timeout: 5_000, interval: 5 }).toBe(true);
    const seq = b.feed.quote('SHRD')?.seq ?? 0;
    await expect.poll(() => b.feed.quote('SHRD')?.seq ?? 0, { timeout: 5_000 }).toBeGreaterThan(seq + 5);
    expect(passed.map((t) => t.seq)).toEqual(passed.map((_, k) => k + 1));
  });
});
