import type { Kysely } from 'kysely';
import { formatAmount, Ledger } from '../../ledger';
import { recordAudit } from '../../platform/audit';
import type { DatabaseHandle } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { recordUserEvent } from '../../platform/realtime/user-events';
import { DEPOSIT_EVENT_KIND } from './deposits';
import type { FundingRowState } from './tables';
import { withFunding, withFundingAndCards } from './tables';
import { WITHDRAWAL_EVENT_KIND } from './withdrawals';

/**
 * Operator review of deposits and withdrawals (`npm run ops -- deposits|withdrawals ...`).
 *
 * A decision is one write transaction: the row moves from `pending` to its final state, the ledger posts inside the
 * same transaction (`ledger.within`), and the audit entry and the user's event are written with them. A crash
 * anywhere rolls all of it back and the row is still pending; two operators (or an approval and a rejection) cannot
 * both decide, since the state change is conditional on the state read. Rows left in `approving` / `rejecting` by
 * the earlier three-step review (claim, ledger call, settle) are finished by deciding them again the same way:
 * the ledger call keeps its request id fixed by the row (`deposit:<id>`, `withdrawal:<id>:post|void`), so a step
 * that had already been applied is replayed, never applied twice.
 */

export interface PendingDeposit {
  id: number;
  userId: number;
  username: string;
  method: 'crypto' | 'bank';
  coin: string;
  chain: string | null;
  amount: string;
  hash: string | null;
  cardLast4: string | null;
  proof: number;
  state: string;
  createdAt: number;
}

/** Deposits waiting for a decision (and any left half-decided, to resume), oldest first. */
export async function listPendingDeposits(db: Kysely<Database>): Promise<PendingDeposit[]> {
  const rows = await withFundingAndCards(db)
    .selectFrom('deposits as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .leftJoin('bank_cards as c', 'c.id', 'd.bank_card_id')
    .select([
      'd.id',
      'd.user_id',
      'u.username',
      'd.method',
      'd.coin',
      'd.chain',
      'd.amount',
      'd.hash',
      'c.card_last4 as card_number',
      'd.proof_upload_id',
      'd.state',
      'd.created_at',
    ])
    .where('d.state', 'in', ['pending', 'approving', 'rejecting'])
    .orderBy('d.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    username: r.username,
    method: r.method,
    coin: r.coin,
    chain: r.chain,
    amount: formatAmount(r.coin, r.amount),
    hash: r.hash,
    cardLast4: r.card_number ? r.card_number.slice(-4) : null,
    proof: r.proof_upload_id,
    state: r.state,
    createdAt: r.created_at,
  }));
}

export interface PendingWithdrawal {
  id: number;
  userId: number;
  username: string;
  coin: string;
  chain: string;
  address: string;
  amount: string;
  fee: string;
  remark: string | null;
  state: string;
  createdAt: number;
}

export async function listPendingWithdrawals(db: Kysely<Database>): Promise<PendingWithdrawal[]> {
  const rows = await withFunding(db)
    .selectFrom('withdrawals as w')
    .innerJoin('users as u', 'u.id', 'w.user_id')
    .select([
      'w.id',
      'w.user_id',
      'u.username',
      'w.coin',
      'w.chain',
      'w.address',
      'w.amount',
      'w.fee',
      'w.remark',
      'w.state',
      'w.created_at',
    ])
    .where('w.state', 'in', ['pending', 'approving', 'rejecting'])
    .orderBy('w.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    username: r.username,
    coin: r.coin,
    chain: r.chain,
    address: r.address,
    amount: formatAmount(r.coin, r.amount),
    fee: formatAmount(r.coin, r.fee),
    remark: r.remark,
    state: r.state,
    createdAt: r.created_at,
  }));
}

export interface ReviewOptions {
  /** Who decides; defaults to OPS_OPERATOR or the OS user (server/ops/audit.ts). */
  operator?: string;
  now?: () => number;
}

export type ReviewResult =
  | { ok: true; id: number; userId: number; state: 'passed' | 'rejected'; resumed: boolean }
  | { ok: false; problem: string };

export const MAX_REASON = 500;

function cleanReason(reason: string): { reason: string } | { problem: string } {
  const text = reason.trim().replace(/\s+/g, ' ');
  if (!text) return { problem: 'a rejection needs a reason' };
  if (text.length > MAX_REASON) return { problem: `the reason is longer than ${MAX_REASON}` };
  return { reason: text };
}

type Table = 'deposits' | 'withdrawals';

interface Decision {
  table: Table;
  id: number;
  /** The state of an interrupted earlier review that this decision finishes. */
  resumes: FundingRowState;
  to: 'passed' | 'rejected';
  reason: string | null;
  action: string;
  eventKind: string;
  options: ReviewOptions;
  /** The money of the decision, inside its transaction; returns the ledger entry of a deposit's credit. */
  move(ledger: Ledger, row: DecidedRow): Promise<number | undefined>;
}

interface DecidedRow {
  user_id: number;
  coin: string;
  amount: number;
  reason: string | null;
}

const nounOf = (table: Table) => (table === 'deposits' ? 'deposit' : 'withdrawal');

/** Takes one decision whole: state, postings, audit and the user's event commit together. */
async function decide(handle: DatabaseHandle, d: Decision): Promise<ReviewResult> {
  const now = d.options.now ?? Date.now;
  const at = now();
  return writeTransaction(handle, async (trx) => {
    const before = await withFunding(trx).selectFrom(d.table).select('state').where('id', '=', d.id).executeTakeFirst();
    if (!before) return { ok: false as const, problem: `no ${nounOf(d.table)} ${d.id}` };
    if (before.state !== 'pending' && before.state !== d.resumes) {
      return { ok: false as const, problem: `${nounOf(d.table)} ${d.id} is ${before.state}, not pending` };
    }
    const updated = await withFunding(trx)
      .updateTable(d.table)
      .set({ state: d.to, reviewed_at: at, ...(d.reason !== null ? { reason: d.reason } : {}) })
      .where('id', '=', d.id)
      .where('state', '=', before.state)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      return { ok: false as const, problem: `${d.table} ${d.id} was settled meanwhile` };
    }
    const row = await withFunding(trx)
      .selectFrom(d.table)
      .select(['user_id', 'coin', 'amount', 'reason'])
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow();
    const entryId = await d.move(new Ledger(handle, now).within(trx), row);
    if (d.table === 'deposits' && entryId !== undefined) {
      await withFunding(trx).updateTable('deposits').set({ entry_id: entryId }).where('id', '=', d.id).execute();
    }
    const reason = d.to === 'rejected' ? row.reason : null;
    await recordAudit(trx, {
      action: d.action,
      subjectType: nounOf(d.table),
      subjectId: d.id,
      detail: { user_id: row.user_id, coin: row.coin, amount: row.amount, ...(reason ? { reason } : {}) },
      ...(d.options.operator ? { operator: d.options.operator } : {}),
      at,
    });
    await recordUserEvent(trx, { userId: row.user_id, kind: d.eventKind, data: { id: d.id, state: d.to, reason }, at });
    return { ok: true as const, id: d.id, userId: row.user_id, state: d.to, resumed: before.state === d.resumes };
  });
}

/** Approves a deposit: the amount goes from deposits clearing to the user's coin account. */
export function approveDeposit(handle: DatabaseHandle, id: number, options: ReviewOptions = {}) {
  return decide(handle, {
    table: 'deposits',
    id,
    resumes: 'approving',
    to: 'passed',
    reason: null,
    action: 'deposit.approve',
    eventKind: DEPOSIT_EVENT_KIND,
    options,
    move: async (ledger, row) => {
      const receipt = await ledger.credit({
        userId: row.user_id,
        requestId: `deposit:${id}`,
        kind: 'deposit',
        currency: row.coin,
        amount: row.amount,
        from: 'deposits_clearing',
        to: 'coin',
        memo: `deposit ${id}`,
      });
      return receipt.entryId;
    },
  });
}

/** Rejects a deposit with a reason the user sees; nothing was credited, so only the row changes. */
export async function rejectDeposit(handle: DatabaseHandle, id: number, reason: string, options: ReviewOptions = {}) {
  const clean = cleanReason(reason);
  if ('problem' in clean) return { ok: false as const, problem: clean.problem };
  return decide(handle, {
    table: 'deposits',
    id,
    resumes: 'rejecting',
    to: 'rejected',
    reason: clean.reason,
    action: 'deposit.reject',
    eventKind: DEPOSIT_EVENT_KIND,
    options,
    move: async () => undefined,
  });
}

async function holdOfWithdrawal(db: Kysely<Database>, id: number) {
  return withFunding(db)
    .selectFrom('withdrawals')
    .select(['fee', 'hold_id'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Approves a withdrawal: the hold is paid out, the amount to withdrawals clearing and the fee to fees. */
export function approveWithdrawal(handle: DatabaseHandle, id: number, options: ReviewOptions = {}) {
  return decide(handle, {
    table: 'withdrawals',
    id,
    resumes: 'approving',
    to: 'passed',
    reason: null,
    action: 'withdrawal.approve',
    eventKind: WITHDRAWAL_EVENT_KIND,
    options,
    move: async (ledger, row) => {
      const { fee, hold_id } = await holdOfWithdrawal(ledger.database, id);
      await ledger.postHold({
        userId: row.user_id,
        requestId: `withdrawal:${id}:post`,
        holdId: hold_id,
        to: [
          { owner: { platform: 'withdrawals_clearing' }, amount: row.amount },
          ...(fee > 0 ? [{ owner: { platform: 'fees' as const }, amount: fee }] : []),
        ],
        memo: `withdrawal ${id}`,
      });
      return undefined;
    },
  });
}

/** Rejects a withdrawal with a reason: the hold is voided, the frozen amount is available again. */
export async function rejectWithdrawal(
  handle: DatabaseHandle,
  id: number,
  reason: string,
  options: ReviewOptions = {},
) {
  const clean = cleanReason(reason);
  if ('problem' in clean) return { ok: false as const, problem: clean.problem };
  return decide(handle, {
    table: 'withdrawals',
    id,
    resumes: 'rejecting',
    to: 'rejected',
    reason: clean.reason,
    action: 'withdrawal.reject',
    eventKind: WITHDRAWAL_EVENT_KIND,
    options,
    move: async (ledger, row) => {
      const { hold_id } = await holdOfWithdrawal(ledger.database, id);
      await ledger.voidHold({
        userId: row.user_id,
        requestId: `withdrawal:${id}:void`,
        holdId: hold_id,
        memo: `withdrawal ${id} rejected`,
      });
      return undefined;
    },
  });
}
