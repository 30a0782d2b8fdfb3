import { sql } from 'kysely';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SIMULATOR_FUNDS } from '../../protocol/options';
import { buildApp } from '../../server/app';
import { ensurePlatformInviteCode } from '../../server/domains/account/invite';
import { approveVerification } from '../../server/domains/identity';
import { withOptions } from '../../server/domains/options';
import { Ledger } from '../../server/ledger/ledger';
import { MarketFeed } from '../../server/market/feed';
import { INSTRUMENTS } from '../../server/market/instruments';
import { MarketSimulator } from '../../server/market/simulator';
import { type DatabaseHandle, openPostgres, openSqlite } from '../../server/platform/db/connect';
import { type LeaseStore, RedisLeases } from '../../server/platform/jobs/leases';
import type { RedisClient } from '../../server/platform/realtime/redis';
import {
  DATABASES,
  LOOSE_LIMITS,
  openTestDatabase,
  PLATFORM_INVITE,
  TEST_HASH_COST,
  TestApp,
  TestClock,
  type TestDatabase,
  uniqueEmail,
} from './harness';
import { checkOptionContracts, type OptionFunding } from './options-checks';
import { unitsOf } from './spot-checks';

/**
 * Two app processes (two buildApp instances, each with its own database connection, jobs runner and Redis lease
 * client) on one database and one Redis, as in production with REDIS_URL: contracts are bought through both, the
 * `options-engine` job runs in whichever holds its lease, and every contract enters once and settles once (one
 * settle entry, one payout entry for a win, one final event), by the rule over the recorded ticks. Then the leading
 * app stops while contracts fall due and the other takes over and settles the rest. The market is one simulator both
 * apps listen to, stepped by the test (1 s a step, with the apps' clock).
 */

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ENGINE_LEASE = 'job:options-engine';
const SYMBOLS = ['BTC', 'ETH'];
const PERIOD = 30;

/** A lease store that tells whether its process holds the engine's lease (the runner does not say). */
class WatchedLeases implements LeaseStore {
  leading = false;
  acquired = 0;
  constructor(private readonly inner: LeaseStore) {}
  async acquire(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const ok = await this.inner.acquire(name, owner, ttlMs);
    if (name === ENGINE_LEASE) {
      this.leading = ok;
      this.acquired++;
    }
    return ok;
  }
  async release(name: string, owner: string): Promise<void> {
    if (name === ENGINE_LEASE) this.leading = false;
    await this.inner.release(name, owner);
  }
}

interface Node {
  name: string;
  t: TestApp;
  leases: WatchedLeases;
  redis: RedisClient;
  handle: DatabaseHandle;
  closed: boolean;
}

describe.each(DATABASES)('options engine in two processes sharing Redis on %s', (kind) => {
  const prefix = `test:options-cluster:${Math.random().toString(36).slice(2)}:`;
  let database: TestDatabase;
  const clock = new TestClock();
  const T0 = clock.now();
  const sim = new MarketSimulator({
    seed: `options-cluster-${kind}`,
    now: () => T0,
    liveStart: Math.floor(T0 / 60_000) * 60_000,
    backfillDays: 0,
    alwaysOpen: true,
    stepMs: 1_000,
    instruments: INSTRUMENTS.filter((i) => SYMBOLS.includes(i.symbol)),
  });
  const feed = new MarketFeed(sim, clock.now);
  let marketTime = T0;
  const nodes: Node[] = [];
  let ledger: Ledger;

  /** A second connection to the same database, as another process would open. */
  async function connect(): Promise<DatabaseHandle> {
    if (kind === 'sqlite') {
      const file = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(
        database.handle.db,
      );
      return openSqlite(file.rows[0]?.file ?? '');
    }
    const schema = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.handle.db);
    return openPostgres({
      connectionString: process.env.TEST_DATABASE_URL ?? '',
      options: `-c search_path=${schema.rows[0]?.schema ?? ''}`,
      max: 4,
    });
  }

  async function startNode(name: string): Promise<Node> {
    const handle = await connect();
    const redis: RedisClient = createClient({ url: redisUrl });
    await redis.connect();
    const leases = new WatchedLeases(new RedisLeases(redis, prefix));
    const app = await buildApp({
      database: handle,
      now: clock.now,
      hashCost: TEST_HASH_COST,
      staticDir: false,
      limits: LOOSE_LIMITS,
      leases,
      // Every app records (the `price-record` job runs where its lease is), flushing often.
      market: { feed, record: { flushMs: 100 } },
      logger: { level: 'error' },
    });
    const node: Node = { name, t: new TestApp(app, handle, clock), leases, redis, handle, closed: false };
    nodes.push(node);
    return node;
  }

  async function stopNode(node: Node): Promise<void> {
    if (node.closed) return;
    node.closed = true;
    await node.t.close();
    await node.redis.close();
    await node.handle.db.destroy();
  }

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await ensurePlatformInviteCode(database.handle.db, PLATFORM_INVITE);
    ledger = new Ledger(database.handle);
    sim.advanceTo(T0);
    await startNode('a');
    await startNode('b');
  });

  afterAll(async () => {
    for (const node of nodes) await stopNode(node);
    feed.close();
    const client = createClient({ url: redisUrl });
    await client.connect();
    for (const key of await client.keys(`${prefix}*`)) await client.del(key);
    await client.close();
    await database?.close();
  });

  /** Moves the apps' clock and the market one step together: the next tick comes after everything accepted. */
  function step() {
    clock.advance(1_000);
    marketTime += 1_000;
    sim.advanceTo(marketTime);
  }

  const leader = () => {
    const leading = nodes.filter((n) => !n.closed && n.leases.leading);
    return leading.length === 1 ? leading[0] : undefined;
  };

  /** Waits until `node` leads and one of its rounds has run since (so it has loaded the open contracts). */
  async function leadingRound(node: Node): Promise<void> {
    await vi.waitFor(() => expect(node.leases.leading).toBe(true), { timeout: 20_000, interval: 20 });
    const seen = node.leases.acquired;
    await vi.waitFor(() => expect(node.leases.acquired).toBeGreaterThanOrEqual(seen + 2), {
      timeout: 20_000,
      interval: 20,
    });
  }

  async function count(states: ('waiting' | 'running')[]): Promise<number> {
    const row = await withOptions(database.handle.db)
      .selectFrom('option_contracts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('state', 'in', states)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  const waitOpen = (states: ('waiting' | 'running')[], n: number) =>
    vi.waitFor(async () => expect(await count(states)).toBe(n), { timeout: 30_000, interval: 50 });

  const users: { id: number; token: string; node: Node; account: 'real' | 'simulator' }[] = [];
  const funding: OptionFunding[] = [];
  let requests = 0;

  /** Buys `perNode` contracts through every running node, all accepted at the current clock, both books. */
  async function buyBurst(perNode: number): Promise<number[]> {
    const running = nodes.filter((n) => !n.closed);
    const placed: number[] = [];
    const jobs: Promise<void>[] = [];
    for (const node of running) {
      const own = users.filter((u) => u.node === node || u.node.closed);
      for (let i = 0; i < perNode; i++) {
        const user = own[i % own.length];
        if (!user) throw new Error('no user');
        const fields = {
          symbol: SYMBOLS[i % SYMBOLS.length] ?? 'BTC',
          direction: Math.floor(i / 2) % 2 === 0 ? 'up' : 'down',
          seconds: String(PERIOD),
          stake: i % 3 === 0 ? '12.5' : '10',
          account: user.account,
          request_id: `r${++requests}`,
        };
        jobs.push(
          node.t.call('microtrade/submit', fields, { token: user.token }).then(({ body }) => {
            expect(body.type, JSON.stringify(body)).toBe('ok');
            placed.push((body.data as { id: number }).id);
          }),
        );
      }
    }
    await Promise.all(jobs);
    return placed;
  }

  async function check(): Promise<Record<string, number>> {
    const result = await checkOptionContracts(database.handle, funding);
    expect(result.problems).toEqual([]);
    return result.states;
  }

  it('enters and settles every contract bought through either app exactly once', async () => {
    const [a, b] = nodes as [Node, Node];
    await vi.waitFor(() => expect(leader()).toBeDefined(), { timeout: 20_000, interval: 20 });
    for (const node of [a, b]) {
      for (let u = 0; u < 4; u++) {
        const session = await node.t.registerByEmail(uniqueEmail(`options-cluster-${node.name}`));
        const account = u % 2 === 0 ? 'real' : 'simulator';
        users.push({ id: session.user.id, token: session.token, node, account });
        if (account === 'simulator') {
          funding.push({ userId: session.user.id, book: 'simulator', units: unitsOf('USDT', SIMULATOR_FUNDS) });
          continue;
        }
        const submitted = await node.t.call(
          'user/real_name',
          {
            country: 'DE',
            name: 'Test Trader',
            id_number: `T${node.name}${u}00001`,
            address: 'Street 1',
            consent: '1',
          },
          { token: session.token },
        );
        expect(submitted.body.type, submitted.body.message).toBe('ok');
        const review = await approveVerification(database.handle.db, (submitted.body.data as { id: number }).id, {
          operator: 'test',
        });
        expect(review.ok).toBe(true);
        const units = unitsOf('USDT', '10000');
        await ledger.credit({
          userId: session.user.id,
          requestId: 'seed-option',
          kind: 'deposit',
          currency: 'USDT',
          amount: units,
          from: 'deposits_clearing',
          to: 'option',
        });
        funding.push({ userId: session.user.id, book: 'real', units });
      }
    }
    const first = leader();
    if (!first) throw new Error('no leader');
    await leadingRound(first);

    const placed = [...(await buyBurst(60)), ...(await buyBurst(60))];
    expect(placed).toHaveLength(240);
    // The entry tick: every contract runs from it.
    step();
    await waitOpen(['waiting'], 0);
    expect(await count(['running'])).toBe(240);
    // Up to E, then one tick past it: the record holds every tick up to E and all settle.
    for (let k = 0; k <= PERIOD; k++) step();
    await waitOpen(['waiting', 'running'], 0);

    const states = await check();
    expect(Object.values(states).reduce((x, y) => x + y, 0)).toBe(240);
    expect(states.cancelled ?? 0).toBe(0);
    // Both apps accepted contracts; one engine acted.
    expect(nodes.filter((n) => n.leases.leading)).toHaveLength(1);
  });

  it('when the leading app stops while contracts fall due, the other settles the rest, each once', async () => {
    const before = Object.values(await check()).reduce((x, y) => x + y, 0);
    // Five bursts entering at five successive ticks, so they fall due one step after another.
    const placed: number[] = [];
    for (let burst = 0; burst < 5; burst++) {
      placed.push(...(await buyBurst(20)));
      step();
      await waitOpen(['waiting'], 0);
    }
    expect(await count(['running'])).toBe(placed.length);
    // The first burst settles; then two more fall due and the leader stops at once (before or while it settles
    // them: either way the survivor finds them running and settles each once).
    for (let k = 0; k < PERIOD - 3; k++) step();
    await waitOpen(['running'], placed.length - 40);
    step();
    step();
    const stopping = leader();
    if (!stopping) throw new Error('no leader');
    const survivor = nodes.find((n) => n !== stopping && !n.closed);
    if (!survivor) throw new Error('no other app');
    await stopNode(stopping);
    const runningAtStop = await count(['running']);
    await leadingRound(survivor);
    // Contracts keep coming to the survivor while it settles the rest.
    placed.push(...(await buyBurst(40)));
    step();
    await waitOpen(['waiting'], 0);
    for (let k = 0; k <= PERIOD; k++) step();
    await waitOpen(['waiting', 'running'], 0);

    const states = await check();
    expect(Object.values(states).reduce((x, y) => x + y, 0)).toBe(before + placed.length);
    expect(states.cancelled ?? 0).toBe(0);
    console.log(
      `options cluster (${kind}): ${placed.length} contracts in the takeover round, ${runningAtStop} running when ` +
        `${stopping.name} stopped; ${survivor.name} settled them; ${JSON.stringify(states)}`,
    );
  });
});
