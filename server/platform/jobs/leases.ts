import type { RedisClient } from '../realtime/redis';

/**
 * Named leases: at most one owner holds a name at a time, until it releases it or stops renewing for the ttl.
 * With REDIS_URL they live in Redis (every server process sees the same leases); without, one process is the whole
 * cluster and a map is enough.
 */
export interface LeaseStore {
  /** Takes the lease, or extends it when `owner` already holds it; false while another owner holds it. */
  acquire(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up at once if `owner` holds it (a clean stop hands over without waiting for the ttl). */
  release(name: string, owner: string): Promise<void>;
}

/** Leases of a single process (and of tests that play several processes in one). */
export class LocalLeases implements LeaseStore {
  private readonly held = new Map<string, { owner: string; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async acquire(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const current = this.held.get(name);
    if (current && current.owner !== owner && current.expires > this.now()) return false;
    this.held.set(name, { owner, expires: this.now() + ttlMs });
    return true;
  }

  async release(name: string, owner: string): Promise<void> {
    if (this.held.get(name)?.owner === owner) this.held.delete(name);
  }
}

const EXTEND = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/** Leases as Redis keys: `SET NX PX` to take, and Lua compare-and-extend / compare-and-delete for the holder only. */
export class RedisLeases implements LeaseStore {
  constructor(
    private readonly client: RedisClient,
    private readonly prefix = 'lease:',
  ) {}

  async acquire(name: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.extend(name, owner, ttlMs)) || (await this.take(name, owner, ttlMs));
  }

  /** Takes the lease only when nobody holds it. */
  async take(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const key = this.prefix + name;
    const reply = await this.client.set(key, owner, { condition: 'NX', expiration: { type: 'PX', value: ttlMs } });
    return reply === 'OK';
  }

  /** Extends only while `owner` holds the lease. */
  async extend(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const key = this.prefix + name;
    return (await this.client.eval(EXTEND, { keys: [key], arguments: [owner, String(ttlMs)] })) === 1;
  }

  async release(name: string, owner: string): Promise<void> {
    await this.client.eval(RELEASE, { keys: [this.prefix + name], arguments: [owner] });
  }
}
