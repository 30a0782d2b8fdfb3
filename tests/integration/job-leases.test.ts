import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisLeases } from '../../server/platform/jobs/leases';
import { JobRunner } from '../../server/platform/jobs/runner';
import type { RedisClient } from '../../server/platform/realtime/redis';

/** Redis runs on every machine of this project and in CI (127.0.0.1:6379); the test always runs, never skips. */
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Polls `check` until it holds (events, not a fixed sleep); fails after `limitMs`. */
async function eventually(check: () => Promise<boolean>, limitMs = 10_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('job leases in Redis (several processes)', () => {
  let client: RedisClient;
  const prefix = `test:${Math.random().toString(36).slice(2)}:`;
  beforeAll(async () => {
    client = createClient({ url: redisUrl });
    await client.connect();
  });
  afterAll(async () => {
    for (const key of await client.keys(`${prefix}*`)) await client.del(key);
    await client.close();
  });

  it('lets one owner hold a job at a time, extends it for the holder, and frees it on release or expiry', async () => {
    const leases = new RedisLeases(client, prefix);
    expect(await leases.acquire('settle', 'a', 60_000)).toBe(true);
    expect(await leases.acquire('settle', 'b', 60_000)).toBe(false);
    expect(await leases.acquire('settle', 'a', 60_000)).toBe(true);
    await leases.release('settle', 'b');
    expect(await leases.acquire('settle', 'b', 60_000)).toBe(false);
    await leases.release('settle', 'a');
    expect(await leases.acquire('settle', 'b', 150)).toBe(true);
    // b "crashes" (stops renewing): a gets the job once the short lease has lapsed in Redis.
    await eventually(() => leases.acquire('settle', 'a', 60_000));
    expect(await leases.acquire('settle', 'b', 60_000)).toBe(false);
  });

  it('runs a cluster job in one of two runners that share Redis', async () => {
    const runs: string[] = [];
    const runners = ['a', 'b'].map((owner) => {
      const runner = new JobRunner({ leases: new RedisLeases(client, prefix), owner });
      runner.register({
        name: 'accrue',
        scope: 'cluster',
        everyMs: 1000,
        run: ({ leading }) => void (leading && runs.push(owner)),
      });
      return runner;
    });
    for (let i = 0; i < 5; i++) await Promise.all(runners.map((r) => r.runOnce('accrue')));
    expect(runs).toHaveLength(5);
    expect(new Set(runs).size).toBe(1);
    await Promise.all(runners.map((r) => r.close()));
  });
});
