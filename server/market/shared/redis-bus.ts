import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { RedisLeases } from '../../platform/jobs/leases';
import { connectRedisPair, type RedisClient } from '../../platform/realtime/redis';
import type { MarketLogger } from '../live/binance';
import type { Tick } from '../simulator';
import type { LeaseStore } from './leader';
import {
  type LocalMarket,
  type MarketOrigin,
  OriginSchema,
  parseTick,
  RedisTickSource,
  type TickBus,
} from './redis-tick-source';

/** Ticks kept in `market:recent` for processes that start later. */
export const RECENT_TICKS = 5_000;
export const DEFAULT_LEASE_TTL_MS = 5_000;

/** The Redis keys of one shared market (`prefix` separates test runs sharing one Redis). */
export function marketKeys(prefix = '') {
  return {
    leader: `${prefix}market:leader`,
    channel: `${prefix}market:ticks`,
    recent: `${prefix}market:recent`,
    origin: `${prefix}market:origin`,
    snapshot: `${prefix}market:snapshot`,
  };
}

type MarketKeys = ReturnType<typeof marketKeys>;

/** The market leader's single lease, on the platform's Redis leases (one implementation of the Lua scripts). */
export class RedisLeaseStore implements LeaseStore {
  private readonly leases: RedisLeases;

  constructor(
    client: RedisClient,
    private readonly key: string,
  ) {
    this.leases = new RedisLeases(client, '');
  }

  acquire(id: string, ttlMs: number): Promise<boolean> {
    return this.leases.take(this.key, id, ttlMs);
  }

  renew(id: string, ttlMs: number): Promise<boolean> {
    return this.leases.extend(this.key, id, ttlMs);
  }

  release(id: string): Promise<void> {
    return this.leases.release(this.key, id);
  }
}

export class RedisTickBus implements TickBus {
  constructor(
    private readonly client: RedisClient,
    private readonly subscriber: RedisClient,
    private readonly keys: MarketKeys,
    private readonly recentTicks = RECENT_TICKS,
    /** The list goes with the market: it expires this long after the last tick (like the origin). */
    private readonly recentTtlMs = DEFAULT_LEASE_TTL_MS * 3,
  ) {}

  async publish(tick: Tick): Promise<void> {
    const json = JSON.stringify(tick);
    await this.client
      .multi()
      .publish(this.keys.channel, json)
      .lPush(this.keys.recent, json)
      .lTrim(this.keys.recent, 0, this.recentTicks - 1)
      .pExpire(this.keys.recent, this.recentTtlMs)
      .exec();
  }

  async recent(): Promise<Tick[]> {
    const list = await this.client.lRange(this.keys.recent, 0, -1);
    return list.reverse().flatMap((json) => parseTick(json) ?? []);
  }

  async subscribe(handler: (tick: Tick) => void): Promise<() => Promise<void>> {
    const listener = (message: string) => {
      const tick = parseTick(message);
      if (tick) handler(tick);
    };
    await this.subscriber.subscribe(this.keys.channel, listener);
    return async () => {
      await this.subscriber.unsubscribe(this.keys.channel, listener);
    };
  }

  async clearRecent(): Promise<void> {
    await this.client.del([this.keys.recent, this.keys.snapshot]);
  }

  async readOrigin(): Promise<MarketOrigin | undefined> {
    const json = await this.client.get(this.keys.origin);
    if (json === null) return undefined;
    try {
      const parsed = OriginSchema.safeParse(JSON.parse(json));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  async writeOrigin(origin: MarketOrigin, ttlMs: number): Promise<void> {
    // The snapshot lives as long as the origin: written every few seconds, it would otherwise expire between two
    // writes when the ttl is shorter, and it must not outlive the market it describes.
    await this.client
      .multi()
      .set(this.keys.origin, JSON.stringify(origin), { expiration: { type: 'PX', value: ttlMs } })
      .pExpire(this.keys.snapshot, ttlMs)
      .exec();
  }

  async readSnapshot(): Promise<string | undefined> {
    return (await this.client.get(this.keys.snapshot)) ?? undefined;
  }

  async writeSnapshot(json: string, ttlMs: number): Promise<void> {
    await this.client.set(this.keys.snapshot, json, { expiration: { type: 'PX', value: ttlMs } });
  }
}

export interface SharedMarketOptions {
  url: string;
  seed: string;
  /** When this process starts the market: the sequence numbers to continue above (the price record's last). */
  startSeqs?: ReadonlyMap<string, number> | undefined;
  createLocal(origin: MarketOrigin): LocalMarket;
  logger?: MarketLogger | undefined;
  ttlMs?: number;
  /** Key prefix (tests). */
  prefix?: string;
  processId?: string;
  recentTicks?: number;
  /** How often the leader refreshes its state snapshot (see RedisTickSourceOptions). */
  snapshotEveryMs?: number;
}

/** The shared market over Redis at `url`: connected, elected, origin known; close() also closes the clients. */
export async function connectSharedSource(options: SharedMarketOptions): Promise<RedisTickSource> {
  const [client, subscriber] = await connectRedisPair(options.url, (err) =>
    options.logger?.warn(`shared market: redis connection error: ${err.message}`),
  );
  const keys = marketKeys(options.prefix);
  const ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  return RedisTickSource.connect({
    bus: new RedisTickBus(client, subscriber, keys, options.recentTicks, ttlMs * 3),
    lease: new RedisLeaseStore(client, keys.leader),
    processId: options.processId ?? `${hostname()}:${process.pid}:${randomUUID()}`,
    ttlMs,
    seed: options.seed,
    startSeqs: options.startSeqs,
    createLocal: options.createLocal,
    logger: options.logger,
    snapshotEveryMs: options.snapshotEveryMs,
    onClose: async () => {
      await Promise.allSettled([subscriber.close(), client.close()]);
    },
  });
}
