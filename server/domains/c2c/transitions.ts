import type { Kysely, Updateable } from 'kysely';
import type { C2cOrder } from '../../../protocol/c2c';
import { type C2cAction, type C2cActor, c2cStep } from '../../../protocol/rules/c2c';
import type { Ledger } from '../../ledger';
import { recordAudit } from '../../platform/audit';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { postSystemMessage } from '../chat';
import { roleIn } from './orders';
import {
  announceOrder,
  type C2cOrderRow,
  type C2cRole,
  type C2cServices,
  c2cLedgerIds,
  orderSn,
  orderWire,
} from './services';
import type { C2cOrdersTable } from './tables';
import { withC2c } from './tables';

/** What moving an order needs: no payment details are read (the vault is only for answering the caller). */
export type C2cMoneyServices = Pick<C2cServices, 'database' | 'ledger' | 'now'>;

/** The chat's event message of each change (keys of the chat namespace). */
const CHAT_EVENT: Record<C2cAction, string> = {
  pay: 'c2c.event.paid',
  release: 'c2c.event.released',
  cancel: 'c2c.event.cancelled',
  expire: 'c2c.event.expired',
  appeal: 'c2c.event.appealed',
  resolve_release: 'c2c.event.resolved',
  resolve_cancel: 'c2c.event.resolved',
};

export interface Move {
  id: number;
  action: C2cAction;
  actor: C2cActor;
  /** The caller for `buyer`/`merchant` actors: the order must be theirs, on that side. */
  userId?: number;
  /** Appeal: why; operator decisions: the operator's reason. */
  reason?: string;
  /** The operator who decides an appeal (audited). */
  operator?: string;
  /** Called inside the transaction after every write, before it commits (the crash test stops there). */
  inside?: (row: C2cOrderRow) => Promise<void>;
}

/** The order of a move, unchanged: the move had been made already (a retry) or was not due (the expiry). */
type MoveResult = { row: C2cOrderRow; changed: boolean };

/** A retry of a change that already happened answers the order as it is, instead of a refusal. */
function alreadyDone(row: C2cOrderRow, action: C2cAction, role: C2cRole | null): boolean {
  switch (action) {
    case 'pay':
      return row.status === 2;
    case 'cancel':
      return row.status === 5 && row.cancel_reason === 'buyer';
    case 'release':
      return row.status === 3 && row.appeal_decision === null;
    case 'appeal':
      return row.status === 4 && row.appeal_by === role;
    default:
      return false;
  }
}

/**
 * One change of an order's status (protocol/rules/c2c.ts decides which are allowed), with its money, in one
 * transaction: the order row is locked (PostgreSQL; SQLite's write transaction is exclusive), the status moves by a
 * conditional update from the status read, the ad's counters and the escrow hold follow (voided back to the merchant
 * on a cancel, posted to the buyer's coin account on a release), the chat gets its event line and both sides their
 * user event. Whatever runs at the same moment (a payment and the expiry, two taps), exactly one change wins.
 */
export async function moveOrder(s: C2cMoneyServices, move: Move): Promise<MoveResult> {
  return writeTransaction(s.database, async (trx) => {
    const row = await withC2c(trx)
      .selectFrom('c2c_orders')
      .selectAll()
      .where('id', '=', move.id)
      .$if(s.database.kind === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();
    const role = row && move.userId !== undefined ? roleIn(row, move.userId) : null;
    const owned = move.actor === 'operator' || move.actor === 'system' || role === move.actor;
    // Another user's order, or an action of the other side: the order does not exist for them.
    if (!row || !owned) {
      throw new BusinessError('c2cOrderNotFound', { field: 'id' });
    }
    if (alreadyDone(row, move.action, role)) return { row, changed: false };
    const at = s.now();
    const step = c2cStep(row, move.action, move.actor, at);
    if (!step.ok) {
      if (step.problem === 'notDue') return { row, changed: false };
      throw new BusinessError(step.problem, { field: 'id' });
    }
    const next: Updateable<C2cOrdersTable> = { status: step.to, updated_at: at };
    if (step.to === 2) next.paid_at = at;
    if (step.to === 3) next.completed_at = at;
    if (step.to === 5) {
      next.cancelled_at = at;
      next.cancel_reason = step.cancelReason;
    }
    if (step.to === 4) {
      next.appeal_by = move.actor === 'merchant' ? 'merchant' : 'buyer';
      next.appeal_reason = move.reason ?? '';
      next.appeal_opened_at = at;
    }
    if (move.action === 'resolve_release' || move.action === 'resolve_cancel') {
      next.appeal_decision = move.action === 'resolve_release' ? 'release' : 'cancel';
      next.appeal_decision_reason = move.reason ?? '';
      next.appeal_decided_at = at;
    }
    const updated = await withC2c(trx)
      .updateTable('c2c_orders')
      .set(next)
      .where('id', '=', row.id)
      .where('status', '=', row.status)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new BusinessError('c2cWrongStatus', { field: 'id' });
    await escrow(s.ledger.within(trx), trx, updated, step.to);
    if (move.actor === 'operator') {
      await recordAudit(trx, {
        action: 'c2c_appeal.resolve',
        subjectType: 'c2c_order',
        subjectId: row.id,
        detail: {
          decision: next.appeal_decision,
          reason: move.reason ?? '',
          buyer_id: row.buyer_id,
          merchant_id: row.merchant_id,
          coin: row.coin,
          quantity: row.quantity,
          appeal_by: row.appeal_by,
        },
        at,
        ...(move.operator ? { operator: move.operator } : {}),
      });
    }
    if (updated.conversation_id !== null) {
      await postSystemMessage(trx, updated.conversation_id, CHAT_EVENT[move.action], at);
    }
    await announceOrder(trx, updated, at);
    await move.inside?.(updated);
    return { row: updated, changed: true };
  });
}

/** The money of a status change: the ad's counters and the escrow hold (never touched for 2 paid or 4 appeal). */
async function escrow(ledger: Ledger, trx: Kysely<Database>, row: C2cOrderRow, to: number): Promise<void> {
  if (to !== 3 && to !== 5) return;
  if (row.hold_id === null) throw new Error(`c2c order ${row.id} has no escrow hold`);
  if (to === 5) {
    // The coins go back to the ad (and stay the merchant's: the hold is released).
    const back = await withC2c(trx)
      .updateTable('c2c_ads')
      .set((eb) => ({ taken: eb('taken', '-', row.quantity), updated_at: row.updated_at }))
      .where('id', '=', row.ad_id)
      .where('taken', '>=', row.quantity)
      .executeTakeFirst();
    if (Number(back.numUpdatedRows) !== 1) throw new Error(`c2c ad ${row.ad_id} does not hold order ${row.id}`);
    await ledger.voidHold({ userId: row.merchant_id, requestId: c2cLedgerIds.returned(row.id), holdId: row.hold_id });
    return;
  }
  const sold = await withC2c(trx)
    .updateTable('c2c_ads')
    .set((eb) => ({ sold: eb('sold', '+', row.quantity), updated_at: row.updated_at }))
    .where('id', '=', row.ad_id)
    .executeTakeFirst();
  if (Number(sold.numUpdatedRows) !== 1) throw new Error(`c2c ad ${row.ad_id} missing`);
  await ledger.postHold({
    userId: row.merchant_id,
    requestId: c2cLedgerIds.release(row.id),
    holdId: row.hold_id,
    to: [{ owner: { userId: row.buyer_id, type: 'coin' }, amount: row.quantity }],
  });
}

/** A user's move, answered with the order as that user sees it. */
async function userMove(
  s: C2cServices,
  userId: number,
  id: number,
  action: C2cAction,
  actor: 'buyer' | 'merchant',
  reason?: string,
): Promise<C2cOrder> {
  const { row } = await moveOrder(s, { id, action, actor, userId, ...(reason === undefined ? {} : { reason }) });
  return orderWire(row, actor, s.vault);
}

/** ctc/order/cancel: the buyer cancels while paying; the escrow returns to the merchant. */
export const cancelOrder = (s: C2cServices, userId: number, id: number) => userMove(s, userId, id, 'cancel', 'buyer');

/** ctc/order/pay: the buyer marks the order paid, strictly before pay_until on server time. */
export const payOrder = (s: C2cServices, userId: number, id: number) => userMove(s, userId, id, 'pay', 'buyer');

/** ctc/order/release: the merchant releases the coins of a paid order to the buyer. */
export const releaseOrder = (s: C2cServices, userId: number, id: number) =>
  userMove(s, userId, id, 'release', 'merchant');

/** ctc/order/appeal: either side appeals a paid order; an operator decides (resolveAppeal). */
export async function appealOrder(s: C2cServices, userId: number, id: number, reason: string): Promise<C2cOrder> {
  const row = await withC2c(s.database.db)
    .selectFrom('c2c_orders')
    .select(['buyer_id', 'merchant_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  const role = row ? roleIn(row, userId) : null;
  if (!role) throw new BusinessError('c2cOrderNotFound', { field: 'id' });
  return userMove(s, userId, id, 'appeal', role, reason);
}

export type AppealDecision = 'release' | 'cancel';
export type ResolveResult = { ok: true; order: C2cOrderRow } | { ok: false; problem: string };

/** Longest operator reason (the column's size). */
export const MAX_DECISION_REASON = 500;

/**
 * An operator decides an open appeal (status 4): `release` posts the escrow to the buyer (3 completed), `cancel`
 * returns it to the merchant (5 cancelled, reason appeal). With a reason, audited in the transaction of the money.
 * The CLI (`c2c resolve`) and the web console call this.
 */
export async function resolveAppeal(
  s: C2cMoneyServices,
  orderId: number,
  decision: AppealDecision,
  reason: string,
  operator?: string,
): Promise<ResolveResult> {
  const why = reason.trim();
  if (why === '') return { ok: false, problem: 'a decision needs a reason' };
  if (why.length > MAX_DECISION_REASON)
    return { ok: false, problem: `the reason is longer than ${MAX_DECISION_REASON}` };
  try {
    const { row } = await moveOrder(s, {
      id: orderId,
      action: decision === 'release' ? 'resolve_release' : 'resolve_cancel',
      actor: 'operator',
      reason: why,
      ...(operator ? { operator } : {}),
    });
    return { ok: true, order: row };
  } catch (err) {
    if (err instanceof BusinessError) {
      return {
        ok: false,
        problem: err.key === 'c2cOrderNotFound' ? `no c2c order ${orderId}` : `c2c order ${orderId} has no open appeal`,
      };
    }
    throw err;
  }
}

/** An open appeal as operators review it. */
export interface C2cAppeal {
  id: number;
  sn: string;
  buyer_id: number;
  buyer_nickname: string;
  merchant_id: number;
  merchant_nickname: string;
  coin: string;
  /** Minor units of the coin, and the fiat amount in cents. */
  quantity: number;
  fiat: string;
  amount: number;
  pay_type: string;
  by: 'buyer' | 'merchant';
  reason: string;
  created_at: number;
  paid_at: number | null;
  opened_at: number;
  conversation_id: number | null;
}

/** Every open appeal (status 4), oldest first: what `c2c appeals` and the console's queue show. */
export async function listAppeals(db: Kysely<Database>): Promise<C2cAppeal[]> {
  const rows = await withC2c(db).selectFrom('c2c_orders').selectAll().where('status', '=', 4).orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id,
    sn: orderSn(r.id),
    buyer_id: r.buyer_id,
    buyer_nickname: r.buyer_nickname,
    merchant_id: r.merchant_id,
    merchant_nickname: r.merchant_nickname,
    coin: r.coin,
    quantity: r.quantity,
    fiat: r.fiat,
    amount: r.amount,
    pay_type: r.pay_type,
    by: r.appeal_by ?? 'buyer',
    reason: r.appeal_reason ?? '',
    created_at: r.created_at,
    paid_at: r.paid_at,
    opened_at: r.appeal_opened_at ?? r.updated_at,
    conversation_id: r.conversation_id,
  }));
}
