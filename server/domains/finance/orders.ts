import type { Kysely, Selectable } from 'kysely';
import type { FinanceFamily, FinanceOrder, FinanceOrderState, FinanceReport } from '../../../protocol/finance';
import {
  DAY_MS,
  daysDue,
  earlyRedemptionPenalty,
  type FinanceTerms,
  interestDueAt,
  maturityAt,
  utcDay,
} from '../../../protocol/rules/finance';
import { currencyScale, formatAmount } from '../../ledger';
import { cursorPage } from '../../platform/db/paging';
import type { Database } from '../../platform/db/schema';
import type { FinanceOrdersTable } from './tables';
import { withFinance } from './tables';

export type FinanceOrderRow = Selectable<FinanceOrdersTable>;

export const orderTerms = (row: FinanceOrderRow): FinanceTerms => ({
  dailyRate: row.daily_rate,
  cycleDays: row.cycle_days,
  penalty: { kind: row.penalty_kind, value: row.penalty_value },
});

/**
 * Days of a running order's cycle still ahead at `at`: the cycle less the days already due (paid, or due and about
 * to be paid by the accrual job, which a redemption pays first).
 */
export function remainingDays(row: FinanceOrderRow, at: number): number {
  const due = Math.max(row.days_paid, daysDue(row.start_day, row.cycle_days, at));
  return row.cycle_days - due;
}

/** The ledger's request ids of an order's money (unique per user: each applies once). */
export const financeLedgerIds = {
  principal: (requestId: string) => `finance:${requestId}`,
  commit: (requestId: string) => `finance-commit:${requestId}`,
  interest: (id: number, day: number) => `finance-interest:${id}:${day}`,
  returned: (id: number) => `finance-return:${id}`,
  redeem: (id: number) => `finance-redeem:${id}`,
  unwind: (id: number) => `finance-unwind:${id}`,
};

export function orderWire(row: FinanceOrderRow, at: number): FinanceOrder {
  const amount = BigInt(row.amount);
  const running = row.state === 'hosting';
  const left = running ? remainingDays(row, at) : 0;
  const penalty = running
    ? earlyRedemptionPenalty(amount, orderTerms(row), left)
    : row.penalty === null
      ? null
      : BigInt(row.penalty);
  const money = (units: bigint | number) => formatAmount(row.currency, units);
  return {
    id: row.id,
    order_no: `F${String(row.id).padStart(8, '0')}`,
    product_id: row.product_id,
    family: row.family,
    name: row.name,
    currency: row.currency,
    scale: currencyScale(row.currency),
    amount: money(amount),
    daily_rate: row.daily_rate,
    cycle_days: row.cycle_days,
    penalty_rule: { kind: row.penalty_kind, value: row.penalty_value },
    state: row.state,
    days_paid: row.days_paid,
    days_left: running ? left : row.cycle_days - row.days_paid,
    daily_interest: money(row.daily_interest),
    expected_income: money(BigInt(row.daily_interest) * BigInt(row.cycle_days)),
    current_income: money(row.income),
    penalty: penalty === null ? null : money(penalty),
    pay_time: row.created_at,
    interest_start: row.start_day * DAY_MS,
    completion_time: maturityAt(row.start_day, row.cycle_days),
    next_interest_at: running ? interestDueAt(row.start_day, row.days_paid + 1) : null,
    ended_at: row.ended_at,
    request_id: row.request_id,
  };
}

export async function listOrders(
  db: Kysely<Database>,
  userId: number,
  family: FinanceFamily,
  query: { state: FinanceOrderState; limit?: number | undefined; before_id?: number | undefined },
  at: number,
) {
  const limit = query.limit ?? 20;
  const rows = await withFinance(db)
    .selectFrom('finance_orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where('family', '=', family)
    .where('state', '=', query.state)
    .$if(query.before_id !== undefined, (qb) => qb.where('id', '<', query.before_id ?? 0))
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const { page, next_before_id } = cursorPage(rows, limit);
  return { orders: page.map((row) => orderWire(row, at)), next_before_id };
}

/** One of the user's own orders; another user's order does not exist for them. */
export function ownOrder(db: Kysely<Database>, userId: number, id: number) {
  return withFinance(db)
    .selectFrom('finance_orders')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/**
 * The caller's totals per currency over both families: principal of running orders, all interest paid, and the
 * interest of the last completed UTC day (paid orders whose cycle covered that day).
 */
export async function financeReport(db: Kysely<Database>, userId: number, at: number): Promise<FinanceReport> {
  const rows = await withFinance(db).selectFrom('finance_orders').selectAll().where('user_id', '=', userId).execute();
  const yesterday = utcDay(at) - 1;
  const totals = new Map<string, { principal: bigint; income: bigint; yesterday: bigint; running: number }>();
  for (const row of rows) {
    const t = totals.get(row.currency) ?? { principal: 0n, income: 0n, yesterday: 0n, running: 0 };
    if (row.state === 'hosting') {
      t.principal += BigInt(row.amount);
      t.running += 1;
    }
    t.income += BigInt(row.income);
    // Day d of the order (1-based) is UTC day start_day + d − 1; it counts once it was paid.
    const dayNumber = yesterday - row.start_day + 1;
    if (dayNumber >= 1 && dayNumber <= row.days_paid) t.yesterday += BigInt(row.daily_interest);
    totals.set(row.currency, t);
  }
  return {
    currencies: [...totals].map(([currency, t]) => ({
      currency,
      principal: formatAmount(currency, t.principal),
      income_total: formatAmount(currency, t.income),
      income_yesterday: formatAmount(currency, t.yesterday),
      running: t.running,
    })),
  };
}
