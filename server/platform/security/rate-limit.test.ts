import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemoryDatabase } from '../../testing';
import type { DatabaseHandle } from '../db/connect';
import { RateLimiter } from './rate-limit';

describe('RateLimiter', () => {
  let handle: DatabaseHandle;
  let clock: number;
  let limiter: RateLimiter;
  beforeEach(async () => {
    handle = await openMemoryDatabase();
    clock = 1_000_000;
    limiter = new RateLimiter(handle, () => clock);
  });
  afterEach(() => handle.db.destroy());

  const hits = async () => (await handle.db.selectFrom('rate_limit_hits').selectAll().execute()).length;

  it('allows max events per window and says when the next one fits', async () => {
    const limit = { bucket: 'b', max: 3, windowMs: 60_000 };
    for (let i = 0; i < 3; i++) {
      expect(await limiter.take([limit])).toBeNull();
      clock += 10_000;
    }
    // Events at 0 s, 10 s, 20 s; now 30 s: the first leaves the window at 60 s.
    expect(await limiter.take([limit])).toEqual({ limit, retryAfterMs: 30_000 });
    clock += 30_000;
    expect(await limiter.take([limit])).toBeNull();
  });

  it('records nothing when refused, in any of the buckets', async () => {
    const perAddress = { bucket: 'address', max: 1, windowMs: 60_000 };
    const perIp = { bucket: 'ip', max: 5, windowMs: 3_600_000 };
    expect(await limiter.take([perAddress, perIp])).toBeNull();
    expect(await hits()).toBe(2);
    for (let i = 0; i < 3; i++) expect((await limiter.take([perAddress, perIp]))?.limit).toBe(perAddress);
    expect(await hits()).toBe(2);
    clock += 60_000;
    expect(await limiter.take([perAddress, perIp])).toBeNull();
  });

  it('checks several windows on one bucket with one event', async () => {
    const minute = { bucket: 'a', max: 1, windowMs: 60_000 };
    const hour = { bucket: 'a', max: 2, windowMs: 3_600_000 };
    expect(await limiter.take([minute, hour])).toBeNull();
    clock += 61_000;
    expect(await limiter.take([minute, hour])).toBeNull();
    clock += 61_000;
    expect((await limiter.take([minute, hour]))?.limit).toBe(hour);
    expect(await hits()).toBe(2);
  });

  it('check, record and clear serve failure counting', async () => {
    const limit = { bucket: 'fail', max: 2, windowMs: 1_000 };
    expect(await limiter.check(limit)).toBeNull();
    await limiter.record('fail');
    await limiter.record('fail');
    expect(await limiter.check(limit)).not.toBeNull();
    expect(await hits()).toBe(2);
    await limiter.clear('fail');
    expect(await limiter.check(limit)).toBeNull();
  });

  it('a zero limit refuses everything; old events are pruned', async () => {
    expect(await limiter.take([{ bucket: 'z', max: 0, windowMs: 1_000 }])).not.toBeNull();
    const limit = { bucket: 'p', max: 10, windowMs: 1_000 };
    await limiter.take([limit]);
    clock += 5_000;
    await limiter.take([limit]);
    expect(await hits()).toBe(1);
  });
  it('backoff: free attempts, then waits that double up to a cap, counted from the newest attempt', async () => {
    const limit = { bucket: 'login', free: 2, baseMs: 1_000, maxMs: 5_000, windowMs: 60_000 };
    expect(await limiter.attempt([limit])).toMatchObject({ ids: [expect.any(Number)] });
    expect(await limiter.attempt([limit])).toMatchObject({ ids: [expect.any(Number)] });
    for (const wait of [1_000, 2_000, 4_000, 5_000, 5_000]) {
      expect(await limiter.attempt([limit])).toEqual({ wait: { limit, retryAfterMs: wait } });
      clock += wait - 1;
      // A refused attempt records nothing, so asking again does not push the wait further out.
      expect(await limiter.attempt([limit])).toEqual({ wait: { limit, retryAfterMs: 1 } });
      clock += 1;
      expect('ids' in (await limiter.attempt([limit]))).toBe(true);
    }
    // Attempts older than the window no longer count.
    clock += 60_000;
    expect('ids' in (await limiter.attempt([limit]))).toBe(true);
    expect('ids' in (await limiter.attempt([limit]))).toBe(true);
  });

  it('backoff: all or nothing over several buckets; forget takes an attempt back', async () => {
    const source = { bucket: 'acct|ip:1', free: 1, baseMs: 1_000, maxMs: 60_000, windowMs: 60_000 };
    const account = { bucket: 'acct', free: 5, baseMs: 1_000, maxMs: 60_000, windowMs: 60_000 };
    const first = await limiter.attempt([source, account]);
    expect(await hits()).toBe(2);
    expect((await limiter.attempt([source, account])) as unknown).toMatchObject({ wait: { limit: source } });
    expect(await hits()).toBe(2);
    if (!('ids' in first)) throw new Error('expected ids');
    await limiter.forget(first.ids);
    expect(await hits()).toBe(0);
    expect('ids' in (await limiter.attempt([source, account]))).toBe(true);
  });

  it('clearWithSubBuckets forgets a bucket and those below it, nothing else', async () => {
    for (const bucket of [
      'login:fail:user:1',
      'login:fail:user:1|ip:a',
      'login:fail:user:12|ip:a',
      'login:fail:user:1x',
    ]) {
      await limiter.record(bucket);
    }
    await limiter.clearWithSubBuckets('login:fail:user:1');
    const left = await handle.db.selectFrom('rate_limit_hits').select('bucket').orderBy('bucket').execute();
    expect(left.map((r) => r.bucket)).toEqual(['login:fail:user:12|ip:a', 'login:fail:user:1x']);
    // LIKE's wildcards in a bucket name are taken literally.
    await limiter.record('a_b|x');
    await limiter.record('axb|x');
    await limiter.clearWithSubBuckets('a_b');
    expect(await hits()).toBe(3);
  });
});
