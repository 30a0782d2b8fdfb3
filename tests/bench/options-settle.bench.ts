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
import { approveVerification } from '../../server/domains/identity';
import { withOptions } from '../../server/domains/options';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { withPriceRecord } from '../../server/market';
import { MarketFeed } from '../../server/market/feed';
import { INSTRUMENTS } from '../../server/market/instruments';
import { MarketSimulator } from '../../server/market/simulator';
import { migrateToLatest } from '../../server/migrations';
import { type DatabaseHandle, openPostgres, openSqlite, withStatementCache } from '../../server/platform/db/connect';
import type { Database } from '../../server/platform/db/schema';
import { insertUser, openPostgresSchema } from '../../server/testing';

/**
 * Option settlement at expiry on this machine, on SQLite (a file, WAL) and on PostgreSQL when it is reachable:
 * CONTRACTS contracts (8 verified users, real book, bought through HTTP between two ticks) share their entry tick and
 * so expire in the same second E. From E the app's clock runs in real time and the first tick after E is published
 * at once (a busy feed); the figures are the time until every contract is settled (state, ledger postings, pinned
 * exit tick, event) and the lag settled_at − E per contract (p50, p99, max). A contract settles once the record
 * holds a tick after E, so the lag includes the wait for the recorder's next flush (every FLUSH_MS, 1 s as in
 * production); the engine's own part is reported apart, from the moment that tick is sealed. Beside them, the bare
 * ledger transfer rate of the same run (Ledger.transfer from CONCURRENCY loops for SECONDS).
 * Target: all settled within 2 s of E on SQLite on a 2-core machine.
 *
 * Environment: BENCH_CONTRACTS (10000), BENCH_FLUSH_MS (1000), BENCH_SECONDS (3, transfer loops),
 * BENCH_DATABASES=sqlite|postgres (one only), BENCH_QUERIES=1 (SQLite: statements of the settlement by count and
 * time), BENCH_PROFILE=<file> (SQLite: a CPU profile of the settlement alone).
 */
const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 10_000);
const FLUSH_MS = Number(process.env.BENCH_FLUSH_MS ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONCURRENCY = 8;
const PERIOD = 30;
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const INVITE = 'PLATFORM';
const STEP_MS = 1_000;
const ONLY = process.env.BENCH_DATABASES?.split(',');
const QUERIES = process.env.BENCH_QUERIES === '1';
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

function printTally(settled: number): void {
  const rows = [...tally.byText.entries()].sort((a, b) => b[1].ms - a[1].ms);
  const n = rows.reduce((sum, [, r]) => sum + r.n, 0);
  const ms = rows.reduce((sum, [, r]) => sum + r.ms, 0);
  console.log(
    `  statements during the settlement: ${n} (${fig(n / settled, 1)} per contract), ${fig(ms, 0)} ms in the driver`,
  );
  for (const [text, r] of rows.slice(0, 25)) {
    console.log(`  ${String(r.n).padStart(7)} ${fig(r.ms, 0).padStart(7)} ms  ${text}`);
  }
}

const fig = (n: number, digits = 2) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
const label = (s: string) => s.padEnd(44);

/**
 * The app's clock: held still while contracts are bought and the market is stepped by hand (so all are accepted
 * between two ticks), then running in real time from a given moment (so settled_at − E is a real lag).
 */
class Clock {
  private held: number | null = Date.now();
  private from = 0;
  private wallFrom = 0;
  readonly now = () => this.held ?? Math.floor(this.from + (performance.now() - this.wallFrom));
  hold(t: number) {
    this.held = t;
  }
  runFrom(t: number) {
    this.from = t;
    this.wallFrom = performance.now();
    this.held = null;
  }
}

interface Bench {
  app: FastifyInstance;
  clock: Clock;
  sim: MarketSimulator;
  feed: MarketFeed;
  marketTime: number;
  tokens: string[];
}

async function call(app: FastifyInstance, url: string, fields: Record<string, string>, token?: string) {
  const response = await app.inject({
    method: 'POST',
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
  const sim = new MarketSimulator({
    seed,
    now: () => T0,
    liveStart: Math.floor(T0 / 60_000) * 60_000,
    backfillDays: 0,
    alwaysOpen: true,
    stepMs: STEP_MS,
    instruments: INSTRUMENTS.filter((i) => i.symbol === 'BTC'),
  });
  const feed = new MarketFeed(sim, clock.now);
  sim.advanceTo(T0);
  await ensurePlatformInviteCode(handle.db, INVITE);
  const app = await buildApp({
    database: handle,
    now: clock.now,
    hashCost: { memoryCost: 256, timeCost: 1 },
    staticDir: false,
    limits: { codePerIp: { max: 100_000, windowMs: 3_600_000 }, loginPerIp: { max: 100_000, windowMs: 3_600_000 } },
    market: { feed, record: { flushMs: FLUSH_MS } },
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
    const submitted = await call(
      app,
      'user/real_name',
      { country: 'DE', name: 'Bench Trader', id_number: `B${u}000001`, address: 'Street 1', consent: '1' },
      session.token,
    );
    if (submitted.type !== 'ok') throw new Error(`verification refused: ${submitted.message}`);
    const review = await approveVerification(handle.db, (submitted.data as { id: number }).id, { operator: 'bench' });
    if (!review.ok) throw new Error(review.problem);
    await ledger.credit({
      userId: session.user.id,
      requestId: 'funding',
      kind: 'deposit',
      currency: 'USDT',
      amount: 1_000_000_000_000,
      from: 'deposits_clearing',
      to: 'option',
    });
  }
  return { app, clock, sim, feed, marketTime: T0, tokens };
}

function step(b: Bench): void {
  b.marketTime += STEP_MS;
  b.clock.hold(b.marketTime);
  b.sim.advanceTo(b.marketTime);
}

async function count(handle: DatabaseHandle, states: ('waiting' | 'running')[]) {
  const row = await withOptions(handle.db)
    .selectFrom('option_contracts')
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

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;

/** CONTRACTS contracts bought between two ticks, entered by the next one, all settled after their common E. */
async function expiry(b: Bench, handle: DatabaseHandle) {
  let t = performance.now();
  let next = 0;
  await Promise.all(
    b.tokens.map(async (token, loop) => {
      for (let i = next++; i < CONTRACTS; i = next++) {
        const reply = await call(
          b.app,
          'microtrade/submit',
          {
            symbol: 'BTC',
            direction: i % 2 === 0 ? 'up' : 'down',
            seconds: String(PERIOD),
            stake: '10',
            account: 'real',
            request_id: `o-${loop}-${i}`,
          },
          token,
        );
        if (reply.type !== 'ok') throw new Error(`contract refused: ${reply.message}`);
      }
    }),
  );
  const buySeconds = (performance.now() - t) / 1000;
  // The entry tick for all of them.
  t = performance.now();
  step(b);
  await waitFor(async () => (await count(handle, ['waiting'])) === 0);
  const enterSeconds = (performance.now() - t) / 1000;
  const entry = await withOptions(handle.db)
    .selectFrom('option_contracts')
    .select(['expiry_ts'])
    .distinct()
    .where('state', '=', 'running')
    .execute();
  if (entry.length !== 1 || entry[0]?.expiry_ts == null) throw new Error(`bench: ${entry.length} expiries`);
  const E = entry[0].expiry_ts;
  // Up to E (the tick at E is the exit), with the record flushed on its own timer meanwhile.
  while (b.marketTime < E) step(b);
  if ((await count(handle, ['running'])) !== CONTRACTS) throw new Error('bench: a contract settled before E');

  // E: the clock runs in real time from here and the first tick after E comes at once.
  tally.on = QUERIES;
  const stopProfile = handle.kind === 'sqlite' ? await startProfile() : async () => {};
  const t0 = performance.now();
  b.clock.runFrom(E);
  b.marketTime += STEP_MS;
  b.sim.advanceTo(b.marketTime);
  // The settled count changes only as the engine's transactions commit (and on SQLite this loop hardly gets a turn
  // while they run): the timing below comes from the stored times, on the app's clock that runs from E.
  await waitFor(async () => (await count(handle, ['running'])) === 0, 600_000, 2);
  const allAt = performance.now();
  tally.on = false;
  await stopProfile();
  if (QUERIES && handle.kind === 'sqlite') printTally(CONTRACTS);
  const rows = await withOptions(handle.db)
    .selectFrom('option_contracts')
    .select(['settled_at', 'expiry_ts', 'state'])
    .where('expiry_ts', '=', E)
    .execute();
  const lags = rows.map((r) => (r.settled_at ?? Number.NaN) - E).sort((x, y) => x - y);
  // The recorder's batch that sealed the first tick after E: from then the record holds every tick up to E.
  const sealed = await withPriceRecord(handle.db)
    .selectFrom('price_batches as b')
    .innerJoin('price_ticks as t', 't.batch_id', 'b.id')
    .select((eb) => eb.fn.min('b.created_at').as('at'))
    .where('t.symbol', '=', 'BTC')
    .where('t.ts', '>', E)
    .executeTakeFirst();
  const sealedLag = Number(sealed?.at ?? Number.NaN) - E;
  const states: Record<string, number> = {};
  for (const r of rows) states[r.state] = (states[r.state] ?? 0) + 1;
  return {
    buySeconds,
    enterSeconds,
    total: (allAt - t0) / 1000,
    recordWait: sealedLag / 1000,
    engine: ((lags[lags.length - 1] ?? Number.NaN) - sealedLag) / 1000,
    min: lags[0] ?? Number.NaN,
    p50: percentile(lags, 50),
    p99: percentile(lags, 99),
    max: lags[lags.length - 1] ?? Number.NaN,
    states,
  };
}

async function run(name: string, handle: DatabaseHandle, transferHandle: DatabaseHandle): Promise<void> {
  const b = await setUp(handle, `bench-options-${name}`);
  try {
    const ledgerRate = await transfers(transferHandle);
    console.log(`${label(`${name} bare ledger transfers`)} ${fig(ledgerRate, 0).padStart(7)} ops/s`);
    const r = await expiry(b, handle);
    console.log(
      `${label(`${name} ${CONTRACTS} contracts expiring at once`)} ${fig(r.total).padStart(7)} s from E until all ` +
        `settled (${fig(CONTRACTS / r.engine, 0)} settlements/s = ${fig(CONTRACTS / r.engine / ledgerRate)}x the bare ` +
        'ledger transfer)',
    );
    console.log(
      `${label(`${name}   lag settled_at - E`)} p50 ${fig(r.p50 / 1000)} s, p99 ${fig(r.p99 / 1000)} s, ` +
        `max ${fig(r.max / 1000)} s; ${JSON.stringify(r.states)}`,
    );
    console.log(
      `${label(`${name}   where the time goes`)} record complete (tick after E sealed) at ${fig(r.recordWait)} s, ` +
        `first settled at ${fig(r.min / 1000)} s, engine ${fig(r.engine)} s from the seal to the last`,
    );
    console.log(
      `${label(`${name}   before E`)} bought through HTTP in ${fig(r.buySeconds, 1)} s ` +
        `(${fig(CONTRACTS / r.buySeconds, 0)}/s), entered by their tick in ${fig(r.enterSeconds)} s`,
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
  `options settle: ${CONTRACTS} contracts of ${PERIOD} s bought between two ticks (one expiry E), recorder flush ` +
    `every ${FLUSH_MS} ms; ledger transfers from ${CONCURRENCY} loops for ${SECONDS} s`,
);

if (!ONLY || ONLY.includes('sqlite')) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-options-'));
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
