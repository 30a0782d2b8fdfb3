import type { Kysely, Selectable } from 'kysely';
import type { DepositRecord, FundingState, WithdrawalRecord } from '../../../protocol/funding';
import { formatAmount } from '../../ledger';
import { cursorPage } from '../../platform/db/paging';
import type { Database } from '../../platform/db/schema';
import type { DepositsTable, FundingRowState, WithdrawalsTable } from './tables';
import { withFunding, withFundingAndCards } from './tables';

/**
 * The user's own deposit and withdrawal records (charge_mention/log2, log3). Every query is scoped to the session
 * user: another user's id simply finds nothing.
 */

/** What the user sees: a row claimed by an operator but not yet settled is still under review. */
export const publicState = (state: FundingRowState): FundingState =>
  state === 'passed' ? 'passed' : state === 'rejected' ? 'rejected' : 'pending';

/** Row states behind each public state (for the `state` filter). */
const ROW_STATES: Record<FundingState, FundingRowState[]> = {
  pending: ['pending', 'approving', 'rejecting'],
  passed: ['passed'],
  rejected: ['rejected'],
};

export type DepositRow = Selectable<DepositsTable> & { card_number: string | null };
export type WithdrawalRow = Selectable<WithdrawalsTable>;

export function toDepositRecord(row: DepositRow): DepositRecord {
  return {
    id: row.id,
    method: row.method,
    coin: row.coin,
    chain: row.chain,
    address: row.address,
    hash: row.hash,
    card_last4: row.card_number ? row.card_number.slice(-4) : null,
    amount: formatAmount(row.coin, row.amount),
    state: publicState(row.state),
    reason: row.state === 'rejected' ? row.reason : null,
    created_at: row.created_at,
    reviewed_at: row.state === 'passed' || row.state === 'rejected' ? row.reviewed_at : null,
  };
}

export function toWithdrawalRecord(row: WithdrawalRow): WithdrawalRecord {
  return {
    id: row.id,
    coin: row.coin,
    chain: row.chain,
    address: row.address,
    amount: formatAmount(row.coin, row.amount),
    fee: formatAmount(row.coin, row.fee),
    total: formatAmount(row.coin, row.amount + row.fee),
    remark: row.remark,
    state: publicState(row.state),
    reason: row.state === 'rejected' ? row.reason : null,
    created_at: row.created_at,
    reviewed_at: row.state === 'passed' || row.state === 'rejected' ? row.reviewed_at : null,
  };
}

export interface LogQuery {
  limit: number;
  beforeId?: number | undefined;
  id?: number | undefined;
  state?: FundingState | undefined;
}

export function depositRows(db: Kysely<Database>) {
  return withFundingAndCards(db)
    .selectFrom('deposits as d')
    .leftJoin('bank_cards as c', 'c.id', 'd.bank_card_id')
    .selectAll('d')
    .select('c.card_last4 as card_number');
}

export async function depositLog(db: Kysely<Database>, userId: number, q: LogQuery) {
  const rows = await depositRows(db)
    .where('d.user_id', '=', userId)
    .$if(q.id !== undefined, (qb) => qb.where('d.id', '=', q.id ?? 0))
    .$if(q.beforeId !== undefined, (qb) => qb.where('d.id', '<', q.beforeId ?? 0))
    .$if(q.state !== undefined, (qb) => qb.where('d.state', 'in', ROW_STATES[q.state ?? 'pending']))
    .orderBy('d.id', 'desc')
    .limit(q.limit + 1)
    .execute();
  const { page, next_before_id } = cursorPage(rows, q.limit);
  return { items: page.map(toDepositRecord), next_before_id };
}

export async function withdrawalLog(db: Kysely<Database>, userId: number, q: LogQuery) {
  const rows = await withFunding(db)
    .selectFrom('withdrawals')
    .selectAll()
    .where('user_id', '=', userId)
    .$if(q.id !== undefined, (qb) => qb.where('id', '=', q.id ?? 0))
    .$if(q.beforeId !== undefined, (qb) => qb.where('id', '<', q.beforeId ?? 0))
    .$if(q.state !== undefined, (qb) => qb.where('state', 'in', ROW_STATES[q.state ?? 'pending']))
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
  const { page, next_before_id } = cursorPage(rows, q.limit);
  return { items: page.map(toWithdrawalRecord), next_before_id };
}
