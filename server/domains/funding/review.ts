import type { Kysely } from 'kysely';
import { Ledger } from '../../ledger';
import { recordAudit } from '../../platform/audit';
import type { DatabaseHandle } from '../../platform/db/connect';
import type { Database, FundingRowState } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { recordUserEvent } from '../../platform/realtime/user-events';
import { DEPOSIT_EVENT_KIND } from './deposits';
import { WITHDRAWAL_EVENT_KIND } from './withdrawals';

/**
 * Operator review of deposits and withdrawals (`npm run ops -- deposits|withdrawals ...`).
 *
 * The ledger runs each posting in its own transaction, so a decision that moves money takes three steps:
 *   1. claim: `pending` → `approving` (or `rejecting`) by a conditional update. Only one operator can claim a row,
 *      and an approval and a rejection can never both proceed.
 *   2. the ledger call, under a request id fixed by the row (`deposit:<id>`, `withdrawal:<id>:post|void`), so
 *      running it twice applies it once.
 *   3. settle: `approving` → `passed` (or `rejecting` → `rejected`) together with the audit entry and the user's
 *      event, in one transaction.
 * A crash after step 1 or 2 leaves the row in `approving`/`rejecting` (shown to the user as under review);
 * repeating the same command resumes it from there. A deposit rejection moves no money and is one transaction.
 */

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

/**
 * Step 1: moves a `pending` row to `claim` (with the reason of a rejection). A row already in `claim` is handed
 * back for resuming; anything else is a problem for the operator.
 */
async function claim(
  handle: DatabaseHandle,
  table: Table,
  id: number,
  to: FundingRowState,
  reason: string | null,
): Promise<{ ok: true; resumed: boolean } | { ok: false; problem: string }> {
  return writeTransaction(handle, async (trx) => {
    const updated = await trx
      .updateTable(table)
      .set({ state: to, reason })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return { ok: true as const, resumed: false };
    const row = await trx.selectFrom(table).select('state').where('id', '=', id).executeTakeFirst();
    if (row?.state === to) return { ok: true as const, resumed: true };
    const noun = table === 'deposits' ? 'deposit' : 'withdrawal';
    return {
      ok: false as const,
      problem: row ? `${noun} ${id} is ${row.state}, not pending` : `no ${noun} ${id}`,
    };
  });
}

interface Settle {
  table: Table;
  id: number;
  from: FundingRowState;
  to: 'passed' | 'rejected';
  action: string;
  eventKind: string;
  entryId?: number;
  options: ReviewOptions;
}

/** Step 3: the final state, the audit entry and the user's event, in one transaction. */
async function settle(handle: DatabaseHandle, s: Settle, resumed: boolean): Promise<ReviewResult> {
  const at = (s.options.now ?? Date.now)();
  return writeTransaction(handle, async (trx) => {
    const updated = await trx
      .updateTable(s.table)
      .set({ state: s.to, reviewed_at: at })
      .where('id', '=', s.id)
      .where('state', '=', s.from)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      return { ok: false as const, problem: `${s.table} ${s.id} was settled meanwhile` };
    }
    if (s.table === 'deposits' && s.entryId !== undefined) {
      await trx.updateTable('deposits').set({ entry_id: s.entryId }).where('id', '=', s.id).execute();
    }
    const row = await trx
      .selectFrom(s.table)
      .select(['user_id', 'coin', 'amount', 'reason'])
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    const reason = s.to === 'rejected' ? row.reason : null;
    await recordAudit(trx, {
      action: s.action,
      subjectType: s.table === 'deposits' ? 'deposit' : 'withdrawal',
      subjectId: s.id,
      detail: { user_id: row.user_id, coin: row.coin, amount: row.amount, ...(reason ? { reason } : {}) },
      ...(s.options.operator ? { operator: s.options.operator } : {}),
      at,
    });
    await recordUserEvent(trx, {
      userId: row.user_id,
      kind: s.eventKind,
      data: { id: s.id, state: s.to, reason },
      at,
    });
    return { ok: true as const, id: s.id, userId: row.user_id, state: s.to, resumed };
  });
}

/** Approves a deposit: the amount goes from deposits clearing to the user's coin account. */
export async function approveDeposit(handle: DatabaseHandle, id: number, options: ReviewOptions = {}) {
  const claimed = await claim(handle, 'deposits', id, 'approving', null);
  if (!claimed.ok) return claimed;
  const row = await handle.db
    .selectFrom('deposits')
    .select(['user_id', 'coin', 'amount'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const receipt = await new Ledger(handle, options.now).credit({
    userId: row.user_id,
    requestId: `deposit:${id}`,
    kind: 'deposit',
    currency: row.coin,
    amount: row.amount,
    from: 'deposits_clearing',
    to: 'coin',
    memo: `deposit ${id}`,
  });
  return settle(
    handle,
    {
      table: 'deposits',
      id,
      from: 'approving',
      to: 'passed',
      action: 'deposit.approve',
      eventKind: DEPOSIT_EVENT_KIND,
      entryId: receipt.entryId,
      options,
    },
    claimed.resumed,
  );
}

/** Rejects a deposit with a reason the user sees; nothing was credited, so only the row changes. */
export async function rejectDeposit(handle: DatabaseHandle, id: number, reason: string, options: ReviewOptions = {}) {
  const clean = cleanReason(reason);
  if ('problem' in clean) return { ok: false as const, problem: clean.problem };
  const claimed = await claim(handle, 'deposits', id, 'rejecting', clean.reason);
  if (!claimed.ok) return claimed;
  return settle(
    handle,
    {
      table: 'deposits',
      id,
      from: 'rejecting',
      to: 'rejected',
      action: 'deposit.reject',
      eventKind: DEPOSIT_EVENT_KIND,
      options,
    },
    claimed.resumed,
  );
}

async function withdrawalRow(db: Kysely<Database>, id: number) {
  return db
    .selectFrom('withdrawals')
    .select(['user_id', 'amount', 'fee', 'hold_id'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Approves a withdrawal: the hold is paid out, the amount to withdrawals clearing and the fee to fees. */
export async function approveWithdrawal(handle: DatabaseHandle, id: number, options: ReviewOptions = {}) {
  const claimed = await claim(handle, 'withdrawals', id, 'approving', null);
  if (!claimed.ok) return claimed;
  const row = await withdrawalRow(handle.db, id);
  const ledger = new Ledger(handle, options.now);
  // A resumed run finds its request id taken and gets the first receipt back: the hold is paid out once.
  await ledger.postHold({
    userId: row.user_id,
    requestId: `withdrawal:${id}:post`,
    holdId: row.hold_id,
    to: [
      { owner: { platform: 'withdrawals_clearing' }, amount: row.amount },
      ...(row.fee > 0 ? [{ owner: { platform: 'fees' as const }, amount: row.fee }] : []),
    ],
    memo: `withdrawal ${id}`,
  });
  return settle(
    handle,
    {
      table: 'withdrawals',
      id,
      from: 'approving',
      to: 'passed',
      action: 'withdrawal.approve',
      eventKind: WITHDRAWAL_EVENT_KIND,
      options,
    },
    claimed.resumed,
  );
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
  const claimed = await claim(handle, 'withdrawals', id, 'rejecting', clean.reason);
  if (!claimed.ok) return claimed;
  const row = await withdrawalRow(handle.db, id);
  await new Ledger(handle, options.now).voidHold({
    userId: row.user_id,
    requestId: `withdrawal:${id}:void`,
    holdId: row.hold_id,
    memo: `withdrawal ${id} rejected`,
  });
  return settle(
    handle,
    {
      table: 'withdrawals',
      id,
      from: 'rejecting',
      to: 'rejected',
      action: 'withdrawal.reject',
      eventKind: WITHDRAWAL_EVENT_KIND,
      options,
    },
    claimed.resumed,
  );
}
