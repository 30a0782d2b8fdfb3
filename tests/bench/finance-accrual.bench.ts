import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { dailyInterest, interestDueAt, interestStartDay } from '../../protocol/rules/finance';
import { withFinance } from '../../server/domains/finance';
import { accrueFinance } from '../../server/domains/finance/accrual';
import { type BatchRequest, Ledger, platformPrincipalId, withLedger } from '../../server/ledger';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { migrateToLatest } from '../../server/migrations';
import { type DatabaseHandle, openSqlite } from '../../server/platform/db/connect';
import { writeTransaction } from '../../server/platform/db/transaction';
import { openPostgresSchema } from '../../server/testing';

/**
 * The finance accrual on this machine, on SQLite (a file, WAL) and on PostgreSQL when it is reachable: ORDERS running
 * orders (one per user, bulk-inserted as the buy leaves them: day 0 paid, the yield of the whole cycle funded in
 * `finance_yield`, a trust account per user) are paid their first day by one `accrueFinance` round at the moment it
 * is due. The figures are its wall time, orders/s and postings/s (two per order: finance_yield → the user's trust).
 * Beside them, in the same run and on the same database, the ledger's bare rate for the same postings: ORDERS
 * two-leg `post` requests (finance_yield → each user's trust account) through `Ledger.settleBatch` in batches of
 * BATCH (the accrual's own batch size), timed the same way; the ratio is the figure to watch. The bare batches run
 * first, then the accrual, on the same tables.
 *
 * Options: `--orders N` (when run directly: `npx tsx tests/bench/finance-accrual.bench.ts --orders 10000`) or
 * BENCH_ORDERS (through `npm run bench`, which passes no arguments on), default 100000; BENCH_BATCH (orders per
 * accrual transaction and requests per bare batch, default 2000 as the accrual); BENCH_DATABASES=sqlite|postgres (one
 * only); BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test). A phase that throws is reported as
 * failed (exit code 1) and the rest still runs.
 */
function ordersOption(): number {
  const args = process.argv.slice(2);
  const at = args.findIndex((a) => a === '--orders' || a.startsWith('--orders='));
  const raw = at < 0 ? process.env.BENCH_ORDERS : (args[at]?.split('=')[1] ?? args[at + 1]);
  const n = Number(raw ?? 100_000);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`--orders wants a positive whole number, not ${raw}`);
  return n;
}

const ORDERS = ordersOption();
/**
 * Orders per accrual transaction, and requests per bare settleBatch call: the accrual's default (2,000, in
 * server/domains/finance/accrual.ts) unless BENCH_BATCH says otherwise.
 */
const BATCH = Number(process.env.BENCH_BATCH ?? 2_000);
/** Rows per insert statement of the set-up. */
const CHUNK = 500;
const CURRENCY = 'USDT';
const DAILY_RATE = '0.0005';
const CYCLE_DAYS = 30;
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ONLY = process.env.BENCH_DATABASES?.split(',');

/** Timing figures for the console (not money): a fixed number of fraction digits. */
const fig = (n: number, digits = 2) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, k) => items.slice(k * size, (k + 1) * size));

/** Order i's principal in minor units: 100 to 999 USDT, so the daily interest differs between orders. */
const principalOf = (i: number) => (100 + (i % 900)) * 1_000_000;

interface Bench {
  users: number[];
  /** Each order's (and user's) daily interest in minor units, in user order. */
  daily: number[];
  /** When day 1 of every order is due: the accrual's `at`. */
  dueAt: number;
  setupSeconds: number;
}

async function countPostings(handle: DatabaseHandle): Promise<number> {
  const row = await withLedger(handle.db)
    .selectFrom('ledger_postings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** ORDERS users, one product, the funded yield, one principal hold, ORDERS running orders. */
async function setUp(handle: DatabaseHandle): Promise<Bench> {
  const started = performance.now();
  const t0 = Date.now();
  const startDay = interestStartDay(t0);
  const dueAt = interestDueAt(startDay, 1);
  const { db } = handle;

  const users: number[] = [];
  await writeTransaction(handle, async (trx) => {
    for (let k = 0; k < ORDERS; k += CHUNK) {
      const rows = await trx
        .insertInto('users')
        .values(
          Array.from({ length: Math.min(CHUNK, ORDERS - k) }, (_, j) => ({
            username: `bench${k + j}`,
            email: null,
            area_code: null,
            mobile: null,
            phone: null,
            password_hash: 'not a hash',
            fund_password_hash: null,
            invite_code: `BENCH${k + j}`,
            referrer_id: null,
            lang: 'en' as const,
            created_at: t0,
            last_login_at: null,
          })),
        )
        .returning('id')
        .execute();
      for (const row of rows) users.push(row.id);
    }
  });
  users.sort((a, b) => a - b);

  const product = await withFinance(db)
    .insertInto('finance_products')
    .values({
      family: 'hosting',
      name: 'Bench hosting 30 days',
      currency: CURRENCY,
      cycle_days: CYCLE_DAYS,
      daily_rate: DAILY_RATE,
      min_amount: 100_000_000,
      max_amount: 1_000_000_000,
      penalty_kind: 'ratio',
      penalty_value: '0.004',
      on_sale: 1,
      recommended: 0,
      created_at: t0,
      updated_at: t0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  const daily = users.map((_, i) => Number(dailyInterest(BigInt(principalOf(i)), DAILY_RATE)));
  const promised = daily.reduce((sum, d) => sum + d * CYCLE_DAYS, 0);
  const bare = daily.reduce((sum, d) => sum + d, 0);

  // The money as the product moves it: the operator funds the reserve from outside (`npm run ops -- finance fund`),
  // then each sale moves its promised yield from the reserve into finance_yield (here all sales in one entry), plus
  // what the bare batches below pay out of finance_yield. finance_yield never goes below zero.
  const ledger = new Ledger(handle, () => t0);
  const principal = await platformPrincipalId(db, () => t0);
  await ledger.post({
    userId: principal,
    requestId: 'bench-fund',
    kind: 'adjustment',
    legs: [
      { owner: { platform: 'operator_capital' }, currency: CURRENCY, amount: -(promised + bare) },
      { owner: { platform: 'finance_reserve' }, currency: CURRENCY, amount: promised + bare },
    ],
  });
  await ledger.post({
    userId: principal,
    requestId: 'bench-commit',
    kind: 'adjustment',
    legs: [
      { owner: { platform: 'finance_reserve' }, currency: CURRENCY, amount: -(promised + bare) },
      { owner: { platform: 'finance_yield' }, currency: CURRENCY, amount: promised + bare },
    ],
  });

  // Bench set-up only: ONE real principal hold (the first user's), which every order points at. A one-day accrual
  // that is not the last day of the cycle never touches an order's hold, so the others need not exist.
  const holder = users[0] ?? 0;
  const largest = principalOf(0);
  await ledger.credit({
    userId: holder,
    requestId: 'bench-deposit',
    kind: 'deposit',
    currency: CURRENCY,
    amount: largest,
    from: 'deposits_clearing',
    to: 'trust',
  });
  const hold = await ledger.placeHold({
    userId: holder,
    requestId: 'bench-principal',
    kind: 'principal',
    type: 'trust',
    currency: CURRENCY,
    amount: largest,
    ref: `finance ${product.id}`,
  });
  if (hold.holdId === null) throw new Error('bench: no principal hold');
  const holdId = hold.holdId;

  // Every buyer has a trust account (the principal is held there), so the accrual never creates one: empty ones here,
  // consistent with their (no) postings and holds.
  await writeTransaction(handle, async (trx) => {
    for (const chunk of chunks(users, CHUNK)) {
      await withLedger(trx)
        .insertInto('ledger_accounts')
        .values(
          chunk.map((userId) => ({
            user_id: userId,
            book: 'real' as const,
            type: 'trust' as const,
            currency: CURRENCY,
            balance: 0,
            held: 0,
            created_at: t0,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    for (let k = 0; k < ORDERS; k += CHUNK) {
      await withFinance(trx)
        .insertInto('finance_orders')
        .values(
          users.slice(k, k + CHUNK).map((userId, j) => ({
            user_id: userId,
            product_id: product.id,
            family: 'hosting' as const,
            name: 'Bench hosting 30 days',
            currency: CURRENCY,
            amount: principalOf(k + j),
            daily_rate: DAILY_RATE,
            cycle_days: CYCLE_DAYS,
            penalty_kind: 'ratio' as const,
            penalty_value: '0.004',
            daily_interest: daily[k + j] ?? 0,
            start_day: startDay,
            days_paid: 0,
            income: 0,
            state: 'hosting' as const,
            next_due_at: dueAt,
            principal_hold_id: holdId,
            penalty: null,
            request_id: `bench-${k + j}`,
            request_digest: '0'.repeat(64),
            created_at: t0,
            updated_at: t0,
            ended_at: null,
          })),
        )
        .execute();
    }
  });
  // Planner statistics for the bulk-loaded tables (autovacuum would get there in time).
  if (handle.kind === 'postgres') await sql`analyze`.execute(db);
  return { users, daily, dueAt, setupSeconds: (performance.now() - started) / 1000 };
}

/**
 * ORDERS two-leg posts finance_yield → each user's trust account through settleBatch, BATCH per call. Each call gets a
 * fresh Ledger, as each accrual batch does (`ledger.within(trx)`): its account directory starts empty, so both look
 * up the same accounts per batch.
 */
async function bareLedger(handle: DatabaseHandle, b: Bench) {
  const before = await countPostings(handle);
  const t = performance.now();
  for (let k = 0; k < b.users.length; k += BATCH) {
    const requests: BatchRequest[] = b.users.slice(k, k + BATCH).map((userId, j) => {
      const amount = b.daily[k + j] ?? 0;
      return {
        op: 'post',
        userId,
        requestId: `bare:${k + j}`,
        kind: 'interest',
        legs: [
          { owner: { platform: 'finance_yield' }, currency: CURRENCY, amount: -amount },
          { owner: { userId, type: 'trust' }, currency: CURRENCY, amount },
        ],
      };
    });
    await new Ledger(handle, () => b.dueAt).settleBatch(requests);
  }
  const seconds = (performance.now() - t) / 1000;
  const postings = (await countPostings(handle)) - before;
  return { seconds, postings };
}

/** One accrual round at the moment day 1 of every order is due. */
async function accrual(handle: DatabaseHandle, b: Bench) {
  const now = () => b.dueAt;
  const before = await countPostings(handle);
  const t = performance.now();
  const result = await accrueFinance(
    { database: handle, ledger: new Ledger(handle, now), now },
    { at: b.dueAt, batch: BATCH },
  );
  const seconds = (performance.now() - t) / 1000;
  const postings = (await countPostings(handle)) - before;
  return { seconds, postings, result };
}

/** A phase's figures, or why it failed (printed, and the bench exits 1; the other phase and database still run). */
type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

async function attempt<T>(label: string, work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    console.log(`${label.padEnd(28)} FAILED: ${error}`);
    process.exitCode = 1;
    return { ok: false, error };
  }
}

interface Row {
  name: string;
  accrual: Outcome<{ seconds: number; postings: number }>;
  bare: Outcome<{ seconds: number; postings: number }>;
}

async function run(name: string, handle: DatabaseHandle): Promise<Row> {
  await migrateToLatest(handle);
  const b = await setUp(handle);
  console.log(`${`${name} set-up`.padEnd(28)} ${fig(b.setupSeconds, 1)} s for ${ORDERS} users and orders`);
  const bare = await attempt(`${name} bare ledger`, () => bareLedger(handle, b));
  if (bare.ok) {
    console.log(
      `${`${name} bare ledger`.padEnd(28)} ${fig(bare.value.seconds)} s, ${bare.value.postings} postings, ` +
        `${fig(bare.value.postings / bare.value.seconds, 0)} postings/s`,
    );
  }
  const paid = await attempt(`${name} accrual`, () => accrual(handle, b));
  if (paid.ok) {
    const { result, seconds, postings } = paid.value;
    console.log(
      `${`${name} accrual`.padEnd(28)} ${fig(seconds)} s, ${result.orders} orders / ${result.days} days paid, ` +
        `${postings} postings, ${fig(result.orders / seconds, 0)} orders/s, ${fig(postings / seconds, 0)} postings/s`,
    );
    if (result.days !== ORDERS || result.orders !== ORDERS || result.completed !== 0 || postings !== 2 * ORDERS) {
      console.log(`${name}: WRONG: expected ${ORDERS} orders and days paid, none completed, ${2 * ORDERS} postings`);
      process.exitCode = 1;
    }
  }
  const problems = describeProblems(await checkLedger(handle.db));
  let yieldProblem: string | null = null;
  if (bare.ok && paid.ok) {
    // Funded: the whole cycle plus the bare phase's day; each phase paid one day of every order.
    const yieldLeft = await withLedger(handle.db)
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('user_id', 'is', null)
      .where('type', '=', 'finance_yield')
      .where('currency', '=', CURRENCY)
      .executeTakeFirstOrThrow();
    const owed = b.daily.reduce((sum, d) => sum + d * (CYCLE_DAYS - 1), 0);
    if (yieldLeft.balance !== owed) yieldProblem = `finance_yield ${yieldLeft.balance}, owed ${owed}`;
  }
  const clean = problems.length === 0 && yieldProblem === null;
  console.log(
    `${`${name} ledger check`.padEnd(28)} ` +
      (clean
        ? bare.ok && paid.ok
          ? 'clean, finance_yield holds exactly the 29 unpaid days'
          : 'clean (finance_yield not compared: a phase failed)'
        : `PROBLEMS: ${problems[0] ?? yieldProblem}`),
  );
  if (!clean) process.exitCode = 1;
  return { name, accrual: paid, bare };
}

function printTable(rows: readonly Row[]): void {
  const head = [
    'database',
    'orders',
    'accrual ms',
    'accrual orders/s',
    'accrual postings/s',
    'bare postings/s',
    'ratio',
  ];
  const rate = (o: Row['bare']) => (o.ok ? o.value.postings / o.value.seconds : Number.NaN);
  const cell = (n: number, digits = 0, suffix = '') => (Number.isNaN(n) ? 'failed' : `${fig(n, digits)}${suffix}`);
  const lines = rows.map((r) => [
    r.name,
    String(ORDERS),
    cell(r.accrual.ok ? r.accrual.value.seconds * 1000 : Number.NaN),
    cell(r.accrual.ok ? ORDERS / r.accrual.value.seconds : Number.NaN),
    cell(rate(r.accrual)),
    cell(rate(r.bare)),
    cell(rate(r.accrual) / rate(r.bare), 2, 'x'),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...lines.map((l) => (l[c] ?? '').length)));
  const format = (cells: readonly string[]) =>
    cells.map((text, c) => (c === 0 ? text.padEnd(widths[c] ?? 0) : text.padStart(widths[c] ?? 0))).join('  ');
  console.log(`\n${format(head)}`);
  for (const line of lines) console.log(format(line));
}

console.log(
  `finance accrual: ${ORDERS} running orders (${CYCLE_DAYS}-day cycle, daily rate ${DAILY_RATE}) paid one day in ` +
    `one round, beside ${ORDERS} bare two-leg ledger posts in batches of ${BATCH}`,
);

const rows: Row[] = [];
if (!ONLY || ONLY.includes('sqlite')) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-finance-'));
  const sqlite = openSqlite(path.join(dir, 'app.db'));
  try {
    rows.push(await run('sqlite', sqlite));
  } finally {
    await sqlite.db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
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
  try {
    rows.push(await run('postgres', schema.handle));
  } finally {
    await schema.close();
  }
}

if (rows.length > 0) printTable(rows);
