import { sql } from 'kysely';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SPOT_ORDER_EVENT } from '../../protocol/spot';
import { buildApp } from '../../server/app';
import { ensurePlatformInviteCode } from '../../server/domains/account/invite';
import { withSpot } from '../../server/domains/spot';
import { Ledger } from '../../server/ledger/ledger';
import { MarketFeed } from '../../server/market/feed';
import { formatUnits, INSTRUMENTS } from '../../server/market/instruments';
import { MarketSimulator, type SimulatorOptions } from '../../server/market/simulator';
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
import { checkSpotOrders, type Funding, unitsOf } from './spot-checks';

/**
 * Two app processes (two buildApp instances, each with its own database connection, jobs runner and Redis lease
 * client) on one database and one Redis, as in production with REDIS_URL: orders are accepted by both, the
 * `spot-engine` job runs in whichever holds its lease, and every order fills exactly once (one fill, one set of
 * ledger entries, one fill event). The leading app is then stopped mid-way and the other takes over and fills the
 * rest. The market is one simulator both apps listen to, stepped by the test; its series is deterministic, so the
 * test knows the coming prices and places limit orders that rest at their entry tick and cross a few ticks later.
 */

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ENGINE_LEASE = 'job:spot-engine';
const SYMBOLS = ['BTC', 'ETH'];
const QTY: Record<string, string> = { BTC: '0.0002', ETH: '0.003' };
const FUNDS: Record<string, string> = { USDT: '100000', BTC: '1', ETH: '10' };
/** Ticks looked ahead for a limit price that rests at entry and crosses later. */
const LOOKAHEAD = 12;

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

describe.each(DATABASES)('spot engine in two processes sharing Redis on %s', (kind) => {
  const prefix = `test:spot-cluster:${Math.random().toString(36).slice(2)}:`;
  let database: TestDatabase;
  const clock = new TestClock();
  const T0 = clock.now();
  const simOptions: SimulatorOptions = {
    seed: `spot-cluster-${kind}`,
    now: () => T0,
    liveStart: Math.floor(T0 / 60_000) * 60_000,
    backfillDays: 0,
    alwaysOpen: true,
    stepMs: 1_000,
    instruments: INSTRUMENTS.filter((i) => SYMBOLS.includes(i.symbol)),
  };
  const sim = new MarketSimulator(simOptions);
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
      market: { feed },
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

  /** The next `n` ticks of each symbol, from a replica of the market (the same seed and start give the same ticks). */
  function upcoming(n: number): Map<string, bigint[]> {
    const replica = new MarketSimulator(simOptions);
    const prices = new Map<string, bigint[]>(SYMBOLS.map((s) => [s, []]));
    replica.subscribe((tick) => {
      if (tick.ts > marketTime) prices.get(tick.symbol)?.push(BigInt(tick.price));
    });
    replica.advanceTo(marketTime + n * 1_000);
    return prices;
  }

  const leader = () => {
    const leading = nodes.filter((n) => !n.closed && n.leases.leading);
    return leading.length === 1 ? leading[0] : undefined;
  };

  /** Waits until `node` leads and one of its rounds has run since (so it has loaded the open orders). */
  async function leadingRound(node: Node): Promise<void> {
    await vi.waitFor(() => expect(node.leases.leading).toBe(true), { timeout: 20_000, interval: 20 });
    const seen = node.leases.acquired;
    await vi.waitFor(() => expect(node.leases.acquired).toBeGreaterThanOrEqual(seen + 2), {
      timeout: 20_000,
      interval: 20,
    });
  }

  async function openCount(state?: 'waiting'): Promise<number> {
    const row = await withSpot(database.handle.db)
      .selectFrom('spot_orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('state', 'in', state ? [state] : ['waiting', 'pending'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  const users: { id: number; token: string; node: Node }[] = [];
  const funding: Funding[] = [];
  let requests = 0;

  /**
   * Places `perNode` orders through every running node, all accepted at the current clock: market orders (filled at
   * the entry tick), limits crossing at entry, and limits that rest at entry and cross within LOOKAHEAD ticks.
   */
  async function placeBurst(perNode: number): Promise<number[]> {
    const future = upcoming(LOOKAHEAD);
    const running = nodes.filter((n) => !n.closed);
    const placed: number[] = [];
    const jobs: Promise<void>[] = [];
    for (const node of running) {
      const own = users.filter((u) => u.node === node || u.node.closed);
      for (let i = 0; i < perNode; i++) {
        const user = own[i % own.length];
        if (!user) throw new Error('no user');
        const symbol = SYMBOLS[i % SYMBOLS.length] ?? 'BTC';
        // Every symbol on both sides, with each kind of order (i % 3 below).
        const side = Math.floor(i / 2) % 2 === 0 ? 'buy' : 'sell';
        const prices = future.get(symbol) ?? [];
        const entry = prices[0] ?? 0n;
        const later = prices.slice(1);
        // The best later price on the side that rests at entry: a buy below the entry price, a sell above it.
        const rest =
          side === 'buy'
            ? later.reduce((a, b) => (b < a ? b : a), entry)
            : later.reduce((a, b) => (b > a ? b : a), entry);
        const fields: Record<string, string> = { symbol, side, qty: QTY[symbol] ?? '1', request_id: `r${++requests}` };
        const variant = i % 3;
        const scale = INSTRUMENTS.find((x) => x.symbol === symbol)?.priceScale ?? 2;
        if (variant === 0 || rest === entry) fields.type = 'market';
        else {
          fields.type = 'limit';
          fields.price = formatUnits(Number(variant === 1 ? entry : rest), scale);
        }
        jobs.push(
          node.t.call('coin/trade', fields, { token: user.token }).then(({ body }) => {
            expect(body.type, JSON.stringify(body)).toBe('ok');
            placed.push((body.data as { id: number }).id);
          }),
        );
      }
    }
    await Promise.all(jobs);
    return placed;
  }

  /**
   * Steps the market to the entry tick and waits until no order waits for it, then steps on through the crossing
   * ticks and waits until no order is open. The leader takes ticks in order on one chain after the work already
   * queued, so an order it rested is in its book before the next tick is looked at.
   */
  async function fillAll(): Promise<void> {
    step();
    await vi.waitFor(async () => expect(await openCount('waiting')).toBe(0), { timeout: 20_000, interval: 50 });
    for (let k = 0; k < LOOKAHEAD; k++) step();
    await vi.waitFor(async () => expect(await openCount()).toBe(0), { timeout: 20_000, interval: 50 });
  }

  /** Exactly one fill event per completed order (the user event written in the fill's transaction). */
  async function fillEvents(): Promise<Map<number, number>> {
    const events = await database.handle.db
      .selectFrom('user_events')
      .select('payload')
      .where('kind', '=', SPOT_ORDER_EVENT)
      .execute();
    const fills = new Map<number, number>();
    for (const e of events) {
      const order = JSON.parse(e.payload) as { id: number; state: string };
      if (order.state === 'completed') fills.set(order.id, (fills.get(order.id) ?? 0) + 1);
    }
    return fills;
  }

  it('fills every order placed through either app exactly once', async () => {
    const [a, b] = nodes as [Node, Node];
    await vi.waitFor(() => expect(leader()).toBeDefined(), { timeout: 20_000, interval: 20 });
    for (const node of [a, b]) {
      for (let u = 0; u < 3; u++) {
        const session = await node.t.registerByEmail(uniqueEmail(`cluster-${node.name}`));
        const amounts: Record<string, number> = {};
        for (const [currency, amount] of Object.entries(FUNDS)) {
          amounts[currency] = unitsOf(currency, amount);
          await ledger.credit({
            userId: session.user.id,
            requestId: `seed-${currency}`,
            kind: 'deposit',
            currency,
            amount: amounts[currency] ?? 0,
            from: 'deposits_clearing',
            to: 'coin',
          });
        }
        funding.push({ userId: session.user.id, amounts });
        users.push({ id: session.user.id, token: session.token, node });
      }
    }
    const first = leader();
    if (!first) throw new Error('no leader');
    await leadingRound(first);

    const placed = [...(await placeBurst(60)), ...(await placeBurst(60))];
    expect(placed).toHaveLength(240);
    await fillAll();

    const check = await checkSpotOrders(database.handle, funding);
    expect(check.problems).toEqual([]);
    expect(check.states).toEqual({ completed: 240 });
    const events = await fillEvents();
    for (const id of placed) expect(events.get(id), `fill events of order ${id}`).toBe(1);
    // Both apps accepted orders; only one engine acted (the ticks each fill used were seen by both).
    expect(nodes.filter((n) => n.leases.leading)).toHaveLength(1);
  });

  it('when the leading app stops mid-way, the other takes over and fills the rest, each once', async () => {
    const before = (await checkSpotOrders(database.handle, funding)).states.completed ?? 0;
    // Some orders must rest in the leader's book when it stops: wait for a stretch of the walk where a later tick
    // is better than the entry tick (stepping an idle market changes nothing).
    const restsLater = () => [...upcoming(LOOKAHEAD).values()].some((p) => p.slice(1).some((x) => x !== (p[0] ?? x)));
    while (!restsLater()) step();
    const placed = await placeBurst(60);
    // The entry tick: market orders and crossing limits fill, the others rest in the leader's book.
    step();
    await vi.waitFor(async () => expect(await openCount('waiting')).toBe(0), { timeout: 20_000, interval: 50 });
    const resting = await openCount();
    expect(resting).toBeGreaterThan(0);

    const stopping = leader();
    if (!stopping) throw new Error('no leader');
    const survivor = nodes.find((n) => n !== stopping && !n.closed);
    if (!survivor) throw new Error('no other app');
    await stopNode(stopping);
    await leadingRound(survivor);
    // Orders keep coming to the survivor while it fills the rest of the stopped app's book.
    placed.push(...(await placeBurst(40)));
    await fillAll();

    const check = await checkSpotOrders(database.handle, funding);
    expect(check.problems).toEqual([]);
    expect(check.states).toEqual({ completed: before + placed.length });
    const events = await fillEvents();
    for (const id of placed) expect(events.get(id), `fill events of order ${id}`).toBe(1);
    console.log(
      `spot cluster (${kind}): ${placed.length} orders in the takeover round, ${resting} resting when ${stopping.name} stopped; ` +
        `${survivor.name} filled them`,
    );
  });
});
