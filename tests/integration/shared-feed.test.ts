import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { MarketFeed } from '../../server/market/feed';
import { INSTRUMENTS } from '../../server/market/instruments';
import { connectSharedSource, marketKeys } from '../../server/market/shared/redis-bus';
import type { MarketOrigin, RedisTickSource } from '../../server/market/shared/redis-tick-source';
import { MarketSimulator } from '../../server/market/simulator';

const REDIS_URL = process.env.TEST_REDIS_URL;
const TTL = 600;
const INSTR = INSTRUMENTS.filter((i) => ['BTC', 'ETH', 'USDT', 'AAPL'].includes(i.symbol));

describe.runIf(REDIS_URL)('shared market feed over Redis', () => {
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

  async function join(processId: string): Promise<{ source: RedisTickSource; feed: MarketFeed }> {
    const source = await connectSharedSource({
      url,
      prefix,
      processId,
      ttlMs: TTL,
      seed: 'shared-it',
      createLocal: (origin: MarketOrigin) => {
        const simulator = new MarketSimulator({
          seed: origin.seed,
          liveStart: origin.liveStart,
          alwaysOpen: true,
          backfillDays: 1,
          stepMs: 100,
          instruments: INSTR,
          maxCatchUpSteps: Number.POSITIVE_INFINITY,
        });
        return { source: simulator, simulator };
      },
    });
    opened.push(source);
    const feed = new MarketFeed(source);
    feed.start();
    return { source, feed };
  }

  const view = (feed: MarketFeed) =>
    JSON.stringify(INSTR.map((i) => ({ quote: feed.quote(i.symbol), candles: feed.candles(i.symbol, '1min', 2_000) })));

  it('one leader publishes, the follower shows the same market and takes over when the leader goes', async () => {
    const a = await join('a');
    expect(a.source.isLeader).toBe(true);
    // Let the leader run a little so the follower starts with a gap to catch up on.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const b = await join('b');
    expect(b.source.isLeader).toBe(false);
    expect(b.source.marketOrigin).toEqual(a.source.marketOrigin);

    let received = 0;
    b.feed.onTick(() => received++);
    await expect.poll(() => received, { timeout: 5_000 }).toBeGreaterThan(20);
    // Ticks keep coming every 100 ms; between two of them both processes show the same market.
    await expect.poll(() => view(b.feed) === view(a.feed), { timeout: 5_000, interval: 5 }).toBe(true);
    expect(b.feed.quote('BTC')).toEqual(a.feed.quote('BTC'));

    const lastSeq = b.feed.quote('BTC')?.seq ?? 0;
    const closedAt = Date.now();
    await a.source.close();
    a.feed.close();
    await expect.poll(() => b.source.isLeader, { timeout: TTL * 3, interval: 10 }).toBe(true);
    expect(Date.now() - closedAt).toBeLessThan(TTL + 200);

    // B now runs the prices: its own feed moves on, with the next sequence numbers, and Redis gets its ticks.
    await expect.poll(() => b.feed.quote('BTC')?.seq ?? 0, { timeout: 3_000 }).toBeGreaterThan(lastSeq + 5);
    const client = createClient({ url });
    await client.connect();
    try {
      const newest = JSON.parse((await client.lIndex(marketKeys(prefix).recent, 0)) ?? '{}') as { ts?: number };
      expect(newest.ts ?? 0).toBeGreaterThan(closedAt);
    } finally {
      await client.close();
    }
  });

  it('a leader that dies without releasing the lease is replaced within the ttl', async () => {
    const keys = marketKeys(prefix);
    const client = createClient({ url });
    await client.connect();
    try {
      for (const source of opened.splice(0)) await source.close();
      // A crashed leader: the lease is held by a process that will never renew it.
      await client.set(keys.leader, 'crashed', { expiration: { type: 'PX', value: TTL } });
      const c = await join('c');
      expect(c.source.isLeader).toBe(false);
      await expect.poll(() => c.source.isLeader, { timeout: TTL * 3, interval: 10 }).toBe(true);
    } finally {
      await client.close();
    }
  });
});
