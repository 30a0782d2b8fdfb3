import fs from 'node:fs';
import inspector from 'node:inspector';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import SqliteDatabase from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { Kysely, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../server/app';
import { withAccount } from '../../server/domains/account';
import { ensurePlatformInviteCode } from '../../server/domains/account/invite';
import { withSpot } from '../../server/domains/spot';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { MarketFeed } from '../../server/market/feed';
import { formatUnits, INSTRUMENTS } from '../../server/market/instruments';
import { MarketSimulator, type SimulatorOptions } from '../../server/market/simulator';
import { migrateToLatest } from '../../server/migrations';
import { type DatabaseHandle, openPostgres, openSqlite, withStatementCache } from '../../server/platform/db/connect';
import type { Database } from '../../server/platform/db/schema';
import { insertUser, openPostgresSchema } from '../../server/testing';

/**
 * Spot order costs end to end on this machine, on SQLite (a file, WAL) and on PostgreSQL when it is reachable:
 * - orders placed and filled per second: market orders through HTTP (app.inject, the whole call path: session,
 *   validation, hold, order row, event) from CONCURRENCY loops for SECONDS while the market steps, until the last one
 *   is filled by the engine (fill, ledger postings, pinned tick, event); beside the bare ledger transfer rate of the
 *   same run (Ledger.transfer from the same number of loops), the ratio being the figure to watch;
 * - a burst: BURST resting limit orders (placed through HTTP, rested by their entry tick) crossed by one tick, and
 *   the time until all are filled (target: within 2 s on SQLite on a 2-core machine).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONCURRENCY = 8;
const BURST = Number(process.env.BENCH_BURST ?? 10_000);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const INVITE = 'PLATFORM';
const STEP_MS = 1_000;
/** BENCH_DATABASES=sqlite runs only SQLite (profiling). */
const ONLY = process.env.BENCH_DATABASES?.split(',');
/** BENCH_QUERIES=1: the statements of the burst's fills on SQLite, by count and time (where the time goes). */
const QUERIES = process.env.BENCH_QUERIES === '1';

/** BENCH_PROFILE=<file>: a CPU profile (.cpuprofile, for Chrome DevTools) of the burst's fills alone. */
const PROFILE = process.env.BENCH_PROFILE;

/** Starts the V8 profiler; the returned function stops it and writes the profile. */
async function startProfile(): Promise<() => Promise<void>> {
  if (!PROFILE) return async () => {};
  const session = new inspector.Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (err, result) => (err ? reject(err) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  return async () => {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    fs.writeFileSync(PROFILE, JSON.stringify(profile));
    session.disconnect();
  };
}

/** Statements run while `on`, by their SQL text. */
const tally = { on: false, byText: new Map<string, { n: number; ms: number }>() };

/** The SQLite handle of openSqlite, with Kysely's log feeding the tally when BENCH_QUERIES is set. */
function openSqliteCounted(file: string): DatabaseHandle {
  const handle = openSqlite(file);
  if (!QUERIES) return handle;
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  void handle.db.destroy();
  const db = new Kysely<Database>({
    // The statement cache of openSqlite, so the counted run is the server's.
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    log: (event) => {
      if (!tally.on) return;
      const text = event.query.sql.replace(/\(\?(, \?)*\)(, \(\?(, \?)*\))*/g, '(?...)').slice(0, 140);
      const row = tally.byText.get(text) ?? { n: 0, ms: 0 };
      row.n++;
      row.ms += event.queryDurationMillis;
      tally.byText.set(text, row);
    },
  });
  return { db, kind: 'sqlite' };
}

function printTally(fills: number): void {
  const rows = [...tally.byText.entries()].sort((a, b) => b[1].ms - a[1].ms);
  const n = rows.reduce((sum, [, r]) => sum + r.n, 0);
  const ms = rows.reduce((sum, [, r]) => sum + r.ms, 0);
  console.log(`  statements during the burst: ${n} (${fig(n / fills, 1)} per fill), ${fig(ms, 0)} ms in the driver`);
  for (const [text, r] of rows.slice(0, 25)) {
    console.log(`  ${String(r.n).padStart(7)} ${fig(r.ms, 0).padStart(7)} ms  ${text}`);
  }
}

const fig = (n: number, digits = 2) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
const label = (s: string) => s.padEnd(44);

/** A clock the bench moves with the market: orders accepted between two steps take the next tick. */
class Clock {
  private t = Date.now();
  readonly now = () => this.t;
  set(t: number) {
    this.t = t;
  }
}

interface Bench {
  app: FastifyInstance;
  clock: Clock;
  sim: MarketSimulator;
  feed: MarketFeed;
  options: SimulatorOptions;
  marketTime: number;
  tokens: string[];
}

async function call(app: FastifyInstance, url: string, fields: Record<string, string>, token?: string) {
  const response = await app.inject({
    method: url === 'coin/trade/list' ? 'GET' : 'POST',
    url: `/api/${url}`,
    headers: {
      lang: 'en',
      'content-type': 'application/x-www-form-urlencoded',
      ...(token ? { authorization: token } : {}),
    },
    payload: new URLSearchParams(fields).toString(),
  });
  return response.json<{ type: string | number; message: string; data?: unknown }>();
}

async function setUp(handle: DatabaseHandle, seed: string): Promise<Bench> {
  const clock = new Clock();
  const T0 = clock.now();
  const options: SimulatorOptions = {
    seed,
    now: () => T0,
    liveStart: Math.floor(T0 / 60_000) * 60_000,
    backfillDays: 0,
    alwaysOpen: true,
    stepMs: STEP_MS,
    instruments: INSTRUMENTS.filter((i) => i.symbol === 'BTC'),
  };
  const sim = new MarketSimulator(options);
  const feed = new MarketFeed(sim, clock.now);
  sim.advanceTo(T0);
  await ensurePlatformInviteCode(handle.db, INVITE);
  const app = await buildApp({
    database: handle,
    now: clock.now,
    hashCost: { memoryCost: 256, timeCost: 1 },
    staticDir: false,
    limits: { codePerIp: { max: 100_000, windowMs: 3_600_000 }, loginPerIp: { max: 100_000, windowMs: 3_600_000 } },
    market: { feed, record: true },
    logger: { level: 'error' },
  });
  const ledger = new Ledger(handle);
  const tokens: string[] = [];
  for (let u = 0; u < CONCURRENCY; u++) {
    const email = `bench${u}@example.com`;
    await call(app, 'email_send', { email, scene: 'register' });
    const code = await withAccount(handle.db)
      .selectFrom('code_outbox')
      .select('code')
      .where('address', '=', email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const registered = await call(app, 'user/register', {
      type: 'email',
      email,
      code: code.code,
      password: 'secret1',
      repassword: 'secret1',
      invite_code: INVITE,
      agree: '1',
    });
    const session = registered.data as { token: string; user: { id: number } };
    tokens.push(session.token);
    await ledger.credit({
      userId: session.user.id,
      requestId: 'funding',
      kind: 'deposit',
      currency: 'USDT',
      amount: 1_000_000_000_000,
      from: 'deposits_clearing',
      to: 'coin',
    });
  }
  return { app, clock, sim, feed, options, marketTime: T0, tokens };
}

function step(b: Bench): void {
  b.marketTime += STEP_MS;
  b.clock.set(b.marketTime);
  b.sim.advanceTo(b.marketTime);
}

async function count(handle: DatabaseHandle, states: ('waiting' | 'pending' | 'completed' | 'cancelled')[]) {
  const row = await withSpot(handle.db)
    .selectFrom('spot_orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', 'in', states)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function waitFor(check: () => Promise<boolean>, limitMs = 600_000, everyMs = 5): Promise<void> {
  const end = performance.now() + limitMs;
  while (!(await check())) {
    if (performance.now() > end) throw new Error('bench: condition not reached');
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Bare Ledger.transfer from CONCURRENCY loops for SECONDS (the ledger.bench figure, for the ratio). */
async function transfers(handle: DatabaseHandle): Promise<number> {
  const ledger = new Ledger(handle);
  const users: number[] = [];
  for (let loop = 0; loop < CONCURRENCY; loop++) {
    const userId = await insertUser(handle);
    users.push(userId);
    await ledger.credit({
      userId,
      requestId: 'funding',
      kind: 'deposit',
      currency: 'USDT',
      amount: 1_000_000_000,
      from: 'deposits_clearing',
      to: 'coin',
    });
    await ledger.transfer({ userId, requestId: 'warm', currency: 'USDT', amount: 1, from: 'coin', to: 'option' });
  }
  let ops = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    users.map(async (userId, loop) => {
      for (let i = 0; performance.now() < end; i++) {
        const there = i % 2 === 0;
        await ledger.transfer({
          userId,
          requestId: `t-${loop}-${i}`,
          currency: 'USDT',
          amount: 1,
          from: there ? 'coin' : 'option',
          to: there ? 'option' : 'coin',
        });
        ops++;
      }
    }),
  );
  return ops / SECONDS;
}

/** Market orders through HTTP for SECONDS while the market steps, until the last one is filled. */
async function placedAndFilled(b: Bench, handle: DatabaseHandle): Promise<{ placed: number; perSecond: number }> {
  let placed = 0;
  let stop = false;
  // The market steps every 20 ms of real time (50 simulated seconds a second), so a fill waits little for its tick.
  const stepper = setInterval(() => step(b), 20);
  const start = performance.now();
  const end = start + SECONDS * 1000;
  await Promise.all(
    b.tokens.map(async (token, loop) => {
      for (let i = 0; performance.now() < end && !stop; i++) {
        const reply = await call(
          b.app,
          'coin/trade',
          { symbol: 'BTC', side: 'buy', type: 'market', qty: '0.0001', request_id: `m-${loop}-${i}` },
          token,
        );
        if (reply.type !== 'ok') {
          stop = true;
          throw new Error(`order refused: ${reply.message}`);
        }
        placed++;
      }
    }),
  );
  await waitFor(async () => (await count(handle, ['completed'])) >= placed);
  const seconds = (performance.now() - start) / 1000;
  clearInterval(stepper);
  return { placed, perSecond: placed / seconds };
}

/** The next `n` ticks of BTC, from a replica of the market (the same seed and start give the same ticks). */
function upcoming(b: Bench, n: number): bigint[] {
  const replica = new MarketSimulator(b.options);
  const prices: bigint[] = [];
  replica.subscribe((tick) => {
    if (tick.ts > b.marketTime) prices.push(BigInt(tick.price));
  });
  replica.advanceTo(b.marketTime + n * STEP_MS);
  return prices;
}

/** BURST resting limit buys, all crossed by the same tick; the time from that tick until the last is filled. */
async function burst(b: Bench, handle: DatabaseHandle) {
  const before = await count(handle, ['completed']);
  // A limit below the entry price that the walk reaches first at tick k: every order rests at entry, all fire at k.
  let prices = upcoming(b, 200);
  let k = 0;
  for (;;) {
    const entry = prices[0] ?? 0n;
    let low = entry;
    for (let j = 1; j < prices.length && k === 0; j++) {
      const p = prices[j] ?? 0n;
      if (p < low) {
        k = j;
        low = p;
      }
    }
    if (k > 0) break;
    step(b);
    prices = upcoming(b, 200);
  }
  const limit = formatUnits(Number(prices[k]), 2);
  let t = performance.now();
  let next = 0;
  await Promise.all(
    b.tokens.map(async (token, loop) => {
      for (let i = next++; i < BURST; i = next++) {
        const reply = await call(
          b.app,
          'coin/trade',
          { symbol: 'BTC', side: 'buy', type: 'limit', qty: '0.0001', price: limit, request_id: `l-${loop}-${i}` },
          token,
        );
        if (reply.type !== 'ok') throw new Error(`order refused: ${reply.message}`);
      }
    }),
  );
  const placeSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  step(b);
  await waitFor(async () => (await count(handle, ['waiting'])) === 0);
  const restSeconds = (performance.now() - t) / 1000;
  for (let j = 1; j < k; j++) step(b);
  if ((await count(handle, ['completed'])) !== before) throw new Error('bench: a limit filled before its tick');
  t = performance.now();
  tally.on = QUERIES;
  const stopProfile = handle.kind === 'sqlite' ? await startProfile() : async () => {};
  step(b);
  await waitFor(async () => (await count(handle, ['completed'])) - before >= BURST, 600_000, 2);
  const fillSeconds = (performance.now() - t) / 1000;
  tally.on = false;
  await stopProfile();
  if (QUERIES && handle.kind === 'sqlite') printTally(BURST);
  return { placeSeconds, restSeconds, fillSeconds };
}

async function run(name: string, handle: DatabaseHandle, transferHandle: DatabaseHandle): Promise<void> {
  const b = await setUp(handle, `bench-${name}`);
  try {
    const ledgerRate = await transfers(transferHandle);
    const e2e = await placedAndFilled(b, handle);
    console.log(
      `${label(`${name} market orders placed and filled`)} ${fig(e2e.perSecond, 0).padStart(7)} orders/s  ` +
        `(${e2e.placed} orders; ${fig(e2e.perSecond / ledgerRate)}x the bare ledger transfer)`,
    );
    console.log(`${label(`${name} bare ledger transfers`)} ${fig(ledgerRate, 0).padStart(7)} ops/s`);
    const r = await burst(b, handle);
    console.log(
      `${label(`${name} burst: ${BURST} limits crossed by one tick`)} ${fig(r.fillSeconds).padStart(7)} s until all ` +
        `filled (${fig(BURST / r.fillSeconds, 0)} fills/s; placed in ${fig(r.placeSeconds, 1)} s = ` +
        `${fig(BURST / r.placeSeconds, 0)} orders/s, rested by their entry tick in ${fig(r.restSeconds)} s)`,
    );
    const problems = describeProblems(await checkLedger(handle.db));
    console.log(
      `${label(`${name} ledger check`)} ${problems.length ? `${problems.length} PROBLEMS: ${problems[0]}` : 'clean'}`,
    );
    if (problems.length) process.exitCode = 1;
  } finally {
    await b.app.close();
    b.feed.close();
  }
}

console.log(
  `spot fills: ${CONCURRENCY} concurrent HTTP loops for ${SECONDS} s (market orders), then a burst of ${BURST} ` +
    'resting limits crossed by one tick',
);

if (!ONLY || ONLY.includes('sqlite')) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-spot-'));
  const sqlite = openSqliteCounted(path.join(dir, 'app.db'));
  await migrateToLatest(sqlite);
  await run('sqlite', sqlite, sqlite);
  await sqlite.db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}

const probe = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
const reachable = await probe.connect().then(
  () => true,
  () => false,
);
await probe.end().catch(() => undefined);
if (ONLY && !ONLY.includes('postgres')) {
  // not asked for
} else if (!reachable) {
  console.log(`postgres: not reachable at ${PG_URL}, skipped (set BENCH_DATABASE_URL)`);
} else {
  const schema = await openPostgresSchema(PG_URL);
  await migrateToLatest(schema.handle);
  const name = await sql<{ schema: string }>`select current_schema() as schema`.execute(schema.handle.db);
  // The app's pool and a separate one for the transfer loops, one connection per loop.
  const options = `-c search_path=${name.rows[0]?.schema}`;
  const app = openPostgres({ connectionString: PG_URL, options, max: CONCURRENCY });
  const loops = openPostgres({ connectionString: PG_URL, options, max: CONCURRENCY });
  try {
    await run('postgres', app, loops);
  } finally {
    await app.db.destroy();
    await loops.db.destroy();
    await schema.close();
  }
}
