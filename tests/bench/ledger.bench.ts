import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { withLedger } from '../../server/ledger';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { migrateToLatest } from '../../server/migrations';
import { type DatabaseHandle, openPostgres, openSqlite } from '../../server/platform/db/connect';
import type { Database } from '../../server/platform/db/schema';
import { writeTransaction } from '../../server/platform/db/transaction';
import { insertUser, openPostgresSchema } from '../../server/testing';

/**
 * Ledger costs on this machine, on SQLite (a file, WAL) and on PostgreSQL when it is reachable:
 * - transfers per second through Ledger.transfer (idempotency lookup, row locks, balance check, entry, postings,
 *   balances), beside raw inserts of the same rows (one entry, two postings, two balance updates per transaction,
 *   no reads and no checks) in the same run; the ratio is the figure to watch;
 * - the consistency check over a million postings, bulk-inserted in SQL first.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONCURRENCY = 8;
const POSTINGS = Number(process.env.BENCH_POSTINGS ?? 1_000_000);
const BULK_USERS = 1000;
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Timing figures for the console (not money): a fixed number of fraction digits. */
const fig = (n: number, digits = 2) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });

interface Load {
  ops: number;
  perSecond: number;
  p50: number;
  p99: number;
}

/** Runs `op(loop, i)` from CONCURRENCY loops for SECONDS. */
async function load(op: (loop: number, i: number) => Promise<unknown>): Promise<Load> {
  const latencies: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, loop) => {
      for (let i = 0; performance.now() < end; i++) {
        const t = performance.now();
        await op(loop, i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { ops: latencies.length, perSecond: latencies.length / SECONDS, p50: pct(0.5), p99: pct(0.99) };
}

const line = (name: string, r: Load, baseline?: Load) =>
  console.log(
    `${name.padEnd(44)} ${fig(r.perSecond, 0).padStart(7)} ops/s  p50 ${fig(r.p50)} ms  p99 ${fig(r.p99)} ms` +
      (baseline ? `  (${fig(r.perSecond / baseline.perSecond)}x raw)` : ''),
  );

async function transfers(label: string, handle: DatabaseHandle): Promise<void> {
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
    // Creates the option account, so both paths below write to accounts that exist.
    await ledger.transfer({ userId, requestId: 'warm', currency: 'USDT', amount: 1, from: 'coin', to: 'option' });
  }
  const userOf = (loop: number) => users[loop] ?? 0;

  const viaLedger = await load((loop, i) =>
    ledger.transfer({
      userId: userOf(loop),
      requestId: `t${i}`,
      currency: 'USDT',
      amount: 7,
      from: i % 2 === 0 ? 'coin' : 'option',
      to: i % 2 === 0 ? 'option' : 'coin',
    }),
  );

  const accounts = await withLedger(handle.db)
    .selectFrom('ledger_accounts')
    .select(['id', 'user_id', 'type'])
    .where('user_id', 'in', users)
    .execute();
  const accountOf = (loop: number, type: string) =>
    accounts.find((a) => a.user_id === userOf(loop) && a.type === type)?.id ?? 0;
  const raw = await load((loop, i) =>
    handle.db.transaction().execute(async (trx) => {
      const [from, to] =
        i % 2 === 0
          ? [accountOf(loop, 'coin'), accountOf(loop, 'option')]
          : [accountOf(loop, 'option'), accountOf(loop, 'coin')];
      const entry = await withLedger(trx)
        .insertInto('ledger_entries')
        .values({
          user_id: userOf(loop),
          kind: 'transfer',
          request_id: `raw${i}`,
          request_digest: '0'.repeat(64),
          memo: null,
          created_at: Date.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await withLedger(trx)
        .insertInto('ledger_postings')
        .values([
          { entry_id: entry.id, account_id: from, amount: -7 },
          { entry_id: entry.id, account_id: to, amount: 7 },
        ])
        .execute();
      await withLedger(trx)
        .updateTable('ledger_accounts')
        .set((eb) => ({ balance: eb('balance', '-', 7) }))
        .where('id', '=', from)
        .execute();
      await withLedger(trx)
        .updateTable('ledger_accounts')
        .set((eb) => ({ balance: eb('balance', '+', 7) }))
        .where('id', '=', to)
        .execute();
    }),
  );
  line(`${label} raw insert of the same rows`, raw);
  line(`${label} Ledger.transfer`, viaLedger, raw);
}

/** `select i from <1..n>` in the dialect's own words. */
const series = (handle: DatabaseHandle, n: number) =>
  handle.kind === 'postgres'
    ? sql`select i from generate_series(1, ${sql.lit(n)}) as s(i)`
    : sql`with recursive s(i) as (select 1 union all select i + 1 from s where i < ${sql.lit(n)}) select i from s`;

/**
 * A million postings written in a handful of SQL statements: BULK_USERS users with coin and option accounts, each
 * funded from deposits clearing, then POSTINGS / 2 transfers between their two accounts; balances set from the sums.
 */
async function bulkLedger(handle: DatabaseHandle): Promise<void> {
  const { db } = handle;
  // The rows are consistent by construction; checking two foreign keys per posting would be most of the time.
  if (handle.kind === 'sqlite') await sql`pragma foreign_keys = off`.execute(db);
  await writeTransaction(handle, async (trx) => {
    if (handle.kind === 'postgres') await skipForeignKeyChecks(trx);
    await sql`insert into users (username, password_hash, invite_code, lang, created_at)
      select 'bulk' || i, 'not a hash', 'BULK' || i, 'de', 1 from (${series(handle, BULK_USERS)}) as s`.execute(trx);
    await sql`insert into ledger_accounts (user_id, book, type, currency, balance, held, created_at)
      select u.id, 'real', t.type, 'USDT', 0, 0, 1 from users u
      cross join (select 'coin' as type union all select 'option' as type) t
      where u.username like 'bulk%'`.execute(trx);
    await sql`insert into ledger_accounts (user_id, book, type, currency, balance, held, created_at)
      values (null, 'real', 'deposits_clearing', 'USDT', 0, 0, 1) on conflict do nothing`.execute(trx);
    await sql`insert into ledger_entries (user_id, kind, request_id, request_digest, memo, created_at)
      select id, 'deposit', 'bulk-funding', '', null, 1 from users where username like 'bulk%'`.execute(trx);
    await sql`insert into ledger_postings (entry_id, account_id, amount)
      select e.id, a.id, 1000000000000 from ledger_entries e
      join ledger_accounts a on a.user_id = e.user_id and a.type = 'coin' and a.currency = 'USDT'
      where e.request_id = 'bulk-funding'`.execute(trx);
    await sql`insert into ledger_postings (entry_id, account_id, amount)
      select e.id, (select id from ledger_accounts where user_id is null and type = 'deposits_clearing'
        and book = 'real' and currency = 'USDT'), -1000000000000
      from ledger_entries e where e.request_id = 'bulk-funding'`.execute(trx);
    const first = await trx
      .selectFrom('users')
      .select((eb) => eb.fn.min('id').as('id'))
      .where('username', 'like', 'bulk%')
      .executeTakeFirstOrThrow();
    await sql`insert into ledger_entries (user_id, kind, request_id, request_digest, memo, created_at)
      select ${first.id} + (i % ${sql.lit(BULK_USERS)}), 'transfer', 'bulk-' || i, '', null, i
      from (${series(handle, POSTINGS / 2)}) as s`.execute(trx);
    await sql`insert into ledger_postings (entry_id, account_id, amount)
      select e.id, a.id, case when a.type = 'coin' then -(e.id % 97 + 1) else e.id % 97 + 1 end
      from ledger_entries e
      join ledger_accounts a on a.user_id = e.user_id and a.book = 'real' and a.currency = 'USDT'
      where e.request_id like 'bulk-%' and e.request_id <> 'bulk-funding'`.execute(trx);
    await sql`update ledger_accounts set balance = s.total
      from (select account_id, sum(amount) as total from ledger_postings group by account_id) as s
      where s.account_id = ledger_accounts.id`.execute(trx);
  });
  if (handle.kind === 'sqlite') await sql`pragma foreign_keys = on`.execute(db);
  if (handle.kind === 'postgres') await sql`analyze`.execute(db);
}

/** PostgreSQL checks foreign keys with triggers, which replica mode skips; it needs a superuser, else we just wait. */
async function skipForeignKeyChecks(trx: Kysely<Database>): Promise<void> {
  const role = await sql<{
    super: boolean;
  }>`select rolsuper as super from pg_roles where rolname = current_user`.execute(trx);
  if (role.rows[0]?.super) await sql`set local session_replication_role = replica`.execute(trx);
}

async function consistency(label: string, handle: DatabaseHandle): Promise<void> {
  let t = performance.now();
  await bulkLedger(handle);
  const inserted = (performance.now() - t) / 1000;
  t = performance.now();
  const report = await checkLedger(handle.db);
  const checked = (performance.now() - t) / 1000;
  const problems = describeProblems(report);
  console.log(
    `${`${label} consistency check`.padEnd(44)} ${fig(checked)} s for ${report.postings} postings, ` +
      `${report.accounts} accounts (bulk insert ${fig(inserted, 1)} s)` +
      (problems.length ? `  ${problems.length} PROBLEMS: ${problems[0]}` : '  clean'),
  );
  if (problems.length) process.exitCode = 1;
}

console.log(
  `ledger transfers: ${CONCURRENCY} concurrent loops, ${SECONDS} s each; check over ${POSTINGS} bulk postings`,
);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ledger-'));
const sqlite = openSqlite(path.join(dir, 'app.db'));
await migrateToLatest(sqlite);
await transfers('sqlite', sqlite);
await consistency('sqlite', sqlite);
await sqlite.db.destroy();
fs.rmSync(dir, { recursive: true, force: true });

const probe = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
const reachable = await probe.connect().then(
  () => true,
  () => false,
);
await probe.end().catch(() => undefined);
if (!reachable) {
  console.log(`postgres: not reachable at ${PG_URL}, skipped (set BENCH_DATABASE_URL)`);
} else {
  const schema = await openPostgresSchema(PG_URL);
  await migrateToLatest(schema.handle);
  const name = await sql<{ schema: string }>`select current_schema() as schema`.execute(schema.handle.db);
  // Its own pool, one connection per loop, so the loops really run side by side.
  const postgres = openPostgres({
    connectionString: PG_URL,
    options: `-c search_path=${name.rows[0]?.schema}`,
    max: CONCURRENCY,
  });
  try {
    await transfers('postgres', postgres);
    await consistency('postgres', postgres);
  } finally {
    await postgres.db.destroy();
    await schema.close();
  }
}
