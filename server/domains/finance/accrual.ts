import { type Kysely, sql } from 'kysely';
import { FINANCE_ORDER_EVENT } from '../../../protocol/finance';
import { daysDue, interestDueAt } from '../../../protocol/rules/finance';
import type { BatchRequest } from '../../ledger';
import type { DialectKind } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import type { Job } from '../../platform/jobs/runner';
import { recordUserEvents } from '../../platform/realtime/user-events';
import type { FinanceServices } from './buy';
import { lockFinanceBooks } from './locks';
import { type FinanceOrderRow, financeLedgerIds, orderWire } from './orders';
import { withFinance } from './tables';

/** Orders per transaction: large enough for set-based postings, small enough to keep write locks short. */
const BATCH = 2_000;

export interface AccrualResult {
  /** Orders that were paid at least one day. */
  orders: number;
  /** Days of interest paid (a caught-up order counts each day). */
  days: number;
  /** Orders that reached the end of their cycle (principal released). */
  completed: number;
}

/**
 * Pays every running order the interest days due at `at` (RULES "Finance"): day k of an order is due at 00:00 UTC
 * after it. Missed days are caught up in one go; each day is one ledger entry whose request id names the order and
 * the day, and `days_paid` moves forward only by a conditional update in the same transaction, so no day is paid
 * twice, whether two processes run this at once, a round is repeated after a crash, or a redemption paid it first.
 * At the end of the cycle the principal hold is released with the last day's interest.
 */
export interface AccrualOptions {
  /** The time the days are due at (default now); tests and the benchmark choose it. */
  at?: number;
  stillLeading?: () => boolean;
  /** Orders per transaction (default 2,000). */
  batch?: number;
  /**
   * Called inside each batch's transaction after its postings, before it commits: the crash test stops a process
   * there (kill -9) to prove a half-done round changes nothing.
   */
  insideBatch?: (n: number) => Promise<void>;
}

export async function accrueFinance(s: FinanceServices, options: AccrualOptions = {}): Promise<AccrualResult> {
  const at = options.at ?? s.now();
  const result: AccrualResult = { orders: 0, days: 0, completed: 0 };
  const { db } = s.database;
  let afterId = 0;
  let batches = 0;
  const failures: unknown[] = [];
  for (;;) {
    if (options.stillLeading && !options.stillLeading()) break;
    const due = await withFinance(db)
      .selectFrom('finance_orders')
      .select('id')
      .where('state', '=', 'hosting')
      .where('next_due_at', '<=', at)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(options.batch ?? BATCH)
      .execute();
    if (due.length === 0) break;
    afterId = due.at(-1)?.id ?? afterId;
    batches += 1;
    const n = batches;
    const ids = due.map((r) => r.id);
    const inside = options.insideBatch && (() => options.insideBatch?.(n) ?? Promise.resolve());
    let paid: AccrualResult;
    try {
      paid = await payBatch(s, ids, at, inside);
    } catch (err) {
      // One order the ledger refuses must not hold back everyone else's interest: pay the batch order by order and
      // report the ones that failed once the round is done (the job logs it; they are tried again next round).
      paid = { orders: 0, days: 0, completed: 0 };
      for (const id of ids) {
        try {
          const one = await payBatch(s, [id], at);
          paid.orders += one.orders;
          paid.days += one.days;
          paid.completed += one.completed;
        } catch (single) {
          failures.push(single);
        }
      }
      if (failures.length === 0) failures.push(err);
    }
    result.orders += paid.orders;
    result.days += paid.days;
    result.completed += paid.completed;
  }
  if (failures.length > 0) throw new AggregateError(failures, `finance accrual: ${failures.length} order(s) not paid`);
  return result;
}

async function payBatch(
  s: FinanceServices,
  ids: readonly number[],
  at: number,
  inside?: () => Promise<void>,
): Promise<AccrualResult> {
  return writeTransaction(s.database, async (trx) => {
    const currencies = await withFinance(trx)
      .selectFrom('finance_orders')
      .select('currency')
      .distinct()
      .where('id', 'in', ids)
      .execute();
    for (const { currency } of currencies.sort((a, b) => a.currency.localeCompare(b.currency))) {
      await lockFinanceBooks(trx, s.database.kind, currency);
    }
    // Read again inside the transaction: another round or a redemption may have moved a row since the scan.
    const rows = await withFinance(trx)
      .selectFrom('finance_orders')
      .selectAll()
      .where('id', 'in', ids)
      .where('state', '=', 'hosting')
      .$if(s.database.kind === 'postgres', (qb) => qb.forUpdate())
      .execute();
    const requests: BatchRequest[] = [];
    const changes: Array<{ row: FinanceOrderRow; due: number }> = [];
    for (const row of rows) {
      const due = daysDue(row.start_day, row.cycle_days, at);
      if (due <= row.days_paid) continue;
      for (let day = row.days_paid + 1; day <= due; day++) {
        if (row.daily_interest > 0) {
          requests.push({
            op: 'post',
            userId: row.user_id,
            requestId: financeLedgerIds.interest(row.id, day),
            kind: 'interest',
            legs: [
              { owner: { platform: 'finance_yield' }, currency: row.currency, amount: -row.daily_interest },
              { owner: { userId: row.user_id, type: 'trust' }, currency: row.currency, amount: row.daily_interest },
            ],
          });
        }
      }
      if (due === row.cycle_days) {
        requests.push({
          op: 'voidHold',
          userId: row.user_id,
          requestId: financeLedgerIds.returned(row.id),
          holdId: row.principal_hold_id,
        });
      }
      changes.push({ row, due });
    }
    if (changes.length === 0) return { orders: 0, days: 0, completed: 0 };
    await s.ledger.within(trx).settleBatch(requests);
    const events = [];
    const updates: Array<{ id: number; next: OrderChange }> = [];
    let days = 0;
    let completed = 0;
    for (const { row, due } of changes) {
      const ended = due === row.cycle_days;
      const next: OrderChange = {
        days_paid: due,
        income: row.income + row.daily_interest * (due - row.days_paid),
        state: ended ? 'completed' : 'hosting',
        next_due_at: ended ? null : interestDueAt(row.start_day, due + 1),
        ended_at: ended ? at : null,
      };
      updates.push({ id: row.id, next });
      days += due - row.days_paid;
      if (ended) completed += 1;
      events.push({
        userId: row.user_id,
        kind: FINANCE_ORDER_EVENT,
        data: orderWire({ ...row, ...next, updated_at: at }, at),
        at,
      });
    }
    await updateOrders(trx, s.database.kind, updates, at);
    await recordUserEvents(trx, events);
    await inside?.();
    return { orders: changes.length, days, completed };
  });
}

interface OrderChange {
  days_paid: number;
  income: number;
  state: 'hosting' | 'completed';
  next_due_at: number | null;
  ended_at: number | null;
}

/** Rows per UPDATE: a CASE per column keeps it one statement per chunk instead of one per order. */
const UPDATE_CHUNK = 500;

/**
 * Writes the orders' new day counts in a few set-based statements. The rows were read in this transaction (locked on
 * PostgreSQL, exclusive on SQLite), so each must still be running: the count proves it.
 */
async function updateOrders(
  trx: Kysely<Database>,
  kind: DialectKind,
  updates: ReadonlyArray<{ id: number; next: OrderChange }>,
  at: number,
): Promise<void> {
  const cast = kind === 'postgres';
  const caseOf = <T extends number | string | null>(
    chunk: typeof updates,
    pick: (c: OrderChange) => T,
    castTo: 'bigint' | 'integer' | null,
  ) =>
    sql<T>`case id ${sql.join(
      chunk.map(({ id, next }) => {
        const value = pick(next);
        if (value === null) {
          return castTo && cast ? sql`when ${id} then cast(null as ${sql.raw(castTo)})` : sql`when ${id} then null`;
        }
        return castTo && cast
          ? sql`when ${id} then cast(${value} as ${sql.raw(castTo)})`
          : sql`when ${id} then ${value}`;
      }),
      sql` `,
    )} end`;
  for (let k = 0; k < updates.length; k += UPDATE_CHUNK) {
    const chunk = updates.slice(k, k + UPDATE_CHUNK);
    const result = await withFinance(trx)
      .updateTable('finance_orders')
      .set({
        days_paid: caseOf(chunk, (c) => c.days_paid, 'integer'),
        income: caseOf(chunk, (c) => c.income, 'bigint'),
        state: caseOf(chunk, (c) => c.state, null),
        next_due_at: caseOf(chunk, (c) => c.next_due_at, 'bigint'),
        ended_at: caseOf(chunk, (c) => c.ended_at, 'bigint'),
        updated_at: at,
      })
      .where(
        'id',
        'in',
        chunk.map((u) => u.id),
      )
      .where('state', '=', 'hosting')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== chunk.length) throw new Error('finance orders changed during accrual');
  }
}

/** The accrual as a cluster job: one process at a time, every minute (a day becomes due at 00:00 UTC). */
export function accrualJob(s: FinanceServices, everyMs = 60_000): Job {
  return {
    name: 'finance-accrual',
    scope: 'cluster',
    everyMs,
    run: async (round) => {
      if (!round.leading) return;
      await accrueFinance(s, { stillLeading: round.stillLeading });
    },
  };
}
