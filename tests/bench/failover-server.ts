import { readConfig } from '../../server/config';
import { isEntryPoint } from '../../server/entry';
import { closeOnSignals, startServer } from '../../server/main';
import { MarketFeed } from '../../server/market/feed';
import { INSTRUMENTS } from '../../server/market/instruments';
import { connectSharedSource } from '../../server/market/shared/redis-bus';
import { MarketSimulator } from '../../server/market/simulator';
import { type LeaseStore, RedisLeases } from '../../server/platform/jobs/leases';
import { connectRedis } from '../../server/platform/realtime/redis';

/**
 * One server process of the failover bench (failover.bench.ts), the real server (server/main.ts startServer) on
 * DATABASE_URL and REDIS_URL as in production, started as
 *   node --import tsx tests/bench/failover-server.ts '<FailoverServerConfig as JSON>'
 * Two things differ from `npm start`, both so that the bench shares Redis with other test runs without colliding:
 * the job leases and the shared market's keys carry the run's prefix. The market is the shared simulator with a
 * fast step over a few symbols. It prints, for the bench to read:
 *   `listening <url>` once it accepts requests;
 *   `lease <name> held|lost <ttl ms>` whenever this process takes or loses a job lease, or the market's leadership
 *   (`market:leader`): a process killed with SIGKILL says nothing, so its successor's `held` is the takeover.
 */

export interface FailoverServerConfig {
  /** Redis key prefix of the run. */
  prefix: string;
  seed: string;
  stepMs: number;
  symbols: string[];
}

/** Job leases in Redis that print every change of whether this process holds one. */
class AnnouncedLeases implements LeaseStore {
  private readonly held = new Set<string>();

  constructor(private readonly inner: LeaseStore) {}

  async acquire(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const ok = await this.inner.acquire(name, owner, ttlMs);
    this.announce(name, ok, ttlMs);
    return ok;
  }

  async release(name: string, owner: string): Promise<void> {
    await this.inner.release(name, owner);
    this.announce(name, false, 0);
  }

  announce(name: string, holds: boolean, ttlMs: number): void {
    if (holds === this.held.has(name)) return;
    if (holds) this.held.add(name);
    else this.held.delete(name);
    process.stdout.write(`lease ${name} ${holds ? 'held' : 'lost'} ${ttlMs}\n`);
  }
}

async function main(config: FailoverServerConfig): Promise<void> {
  const url = process.env.REDIS_URL;
  if (!url || !process.env.DATABASE_URL) throw new Error('the failover server needs DATABASE_URL and REDIS_URL');
  const client = await connectRedis(url, (err) => console.error(`failover server: redis: ${err.message}`));
  const leases = new AnnouncedLeases(new RedisLeases(client, `${config.prefix}lease:`));
  const source = await connectSharedSource({
    url,
    seed: config.seed,
    prefix: config.prefix,
    createLocal: (origin) => {
      const simulator = new MarketSimulator({
        seed: origin.seed,
        liveStart: origin.liveStart,
        stepMs: config.stepMs,
        backfillDays: 0,
        alwaysOpen: true,
        instruments: INSTRUMENTS.filter((i) => config.symbols.includes(i.symbol)),
        maxCatchUpSteps: Number.POSITIVE_INFINITY,
      });
      return { source: simulator, simulator };
    },
  });
  const server = await startServer(readConfig(), {
    market: { feed: new MarketFeed(source) },
    leases,
    hashCost: { memoryCost: 256, timeCost: 1 },
    staticDir: false,
    limits: {
      codePerIp: { max: 100_000, windowMs: 3_600_000 },
      loginPerIp: { max: 100_000, windowMs: 3_600_000 },
    },
  });
  // The market's leadership has its own lease inside the shared source: watched here like the job leases.
  const market = setInterval(() => leases.announce('market:leader', source.isLeader, 5_000), 20);
  closeOnSignals(async () => {
    clearInterval(market);
    await server.close();
    await client.close();
  });
  process.stdout.write(`listening ${server.url}\n`);
}

if (isEntryPoint(import.meta.url)) await main(JSON.parse(process.argv[2] ?? '{}') as FailoverServerConfig);
