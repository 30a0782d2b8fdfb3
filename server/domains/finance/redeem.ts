import { FINANCE_ORDER_EVENT } from '../../../protocol/finance';
import { daysDue, earlyRedemptionPenalty } from '../../../protocol/rules/finance';
import { type BatchRequest, ledgerEdge } from '../../ledger';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { recordUserEvent } from '../../platform/realtime/user-events';
import type { FinanceServices } from './buy';
import { lockFinanceBooks } from './locks';
import { financeLedgerIds, orderTerms, orderWire, ownOrder } from './orders';
import { withFinance } from './tables';

/**
 * lh/deposit/order/cancel: early redemption of a running order of either family. In one transaction: the days already
 * due are paid first (as the accrual would), then the penalty for the days left (RULES "Finance", never more than
 * the principal) goes from the principal hold to the platform's `penalties`, the rest of the principal is released,
 * and the yield promised for the days left returns from `finance_yield` to the reserve. Redeeming twice, or a
 * finished order, answers `financeOrderNotRunning`; another user's order does not exist for the caller.
 */
export async function redeemEarly(s: FinanceServices, userId: number, id: number) {
  const { db } = s.database;
  const found = await ownOrder(db, userId, id);
  if (!found) throw new BusinessError('financeOrderNotFound', { field: 'id' });
  const row = await ledgerEdge(
    () =>
      writeTransaction(s.database, async (trx) => {
        await lockFinanceBooks(trx, s.database.kind, found.currency);
        const order = await withFinance(trx)
          .selectFrom('finance_orders')
          .selectAll()
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .$if(s.database.kind === 'postgres', (qb) => qb.forUpdate())
          .executeTakeFirstOrThrow();
        // A retry of a redemption whose answer was lost gets the redeemed order back.
        if (order.state === 'redeemed') return order;
        if (order.state !== 'hosting') throw new BusinessError('financeOrderNotRunning', { field: 'id' });
        const at = s.now();
        const due = daysDue(order.start_day, order.cycle_days, at);
        // At or after maturity there is nothing to redeem early: the accrual completes it (and soon will).
        if (due >= order.cycle_days) throw new BusinessError('financeOrderNotRunning', { field: 'id' });
        const remaining = order.cycle_days - Math.max(due, order.days_paid);
        const amount = BigInt(order.amount);
        const penalty = earlyRedemptionPenalty(amount, orderTerms(order), remaining);
        const unwound = order.daily_interest * remaining;
        const requests: BatchRequest[] = [];
        for (let day = order.days_paid + 1; day <= due; day++) {
          if (order.daily_interest > 0) {
            requests.push({
              op: 'post',
              userId,
              requestId: financeLedgerIds.interest(order.id, day),
              kind: 'interest',
              legs: [
                { owner: { platform: 'finance_yield' }, currency: order.currency, amount: -order.daily_interest },
                { owner: { userId, type: 'trust' }, currency: order.currency, amount: order.daily_interest },
              ],
            });
          }
        }
        requests.push(
          penalty > 0n
            ? {
                op: 'postHold',
                userId,
                requestId: financeLedgerIds.redeem(order.id),
                holdId: order.principal_hold_id,
                to: [{ owner: { platform: 'penalties' }, amount: Number(penalty) }],
              }
            : { op: 'voidHold', userId, requestId: financeLedgerIds.redeem(order.id), holdId: order.principal_hold_id },
        );
        if (unwound > 0) {
          requests.push({
            op: 'post',
            userId,
            requestId: financeLedgerIds.unwind(order.id),
            kind: 'adjustment',
            legs: [
              { owner: { platform: 'finance_yield' }, currency: order.currency, amount: -unwound },
              { owner: { platform: 'finance_reserve' }, currency: order.currency, amount: unwound },
            ],
          });
        }
        await s.ledger.within(trx).settleBatch(requests);
        const paidDays = Math.max(due, order.days_paid);
        const next = {
          days_paid: paidDays,
          income: order.income + order.daily_interest * (paidDays - order.days_paid),
          state: 'redeemed' as const,
          next_due_at: null,
          penalty: Number(penalty),
          ended_at: at,
          updated_at: at,
        };
        await withFinance(trx).updateTable('finance_orders').set(next).where('id', '=', order.id).execute();
        const redeemed = { ...order, ...next };
        await recordUserEvent(trx, { userId, kind: FINANCE_ORDER_EVENT, data: orderWire(redeemed, at), at });
        return redeemed;
      }),
    {},
  );
  return orderWire(row, s.now());
}
