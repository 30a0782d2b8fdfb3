import { IEO_ORDER_EVENT, IEO_PAY_CURRENCY } from '../../../protocol/ieo';
import { ledgerEdge } from '../../ledger';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { recordUserEvent } from '../../platform/realtime/user-events';
import type { IeoServices } from './apply';
import { orderWire, projectById } from './projects';
import { withIeo } from './tables';

/** The ledger's request ids of a subscription's money (unique per user: each applies once). */
export const ieoLedgerIds = {
  pay: (id: number) => `ieo-pay:${id}`,
  settle: (id: number) => `ieo-settle:${id}`,
  credit: (id: number) => `ieo-credit:${id}`,
  lock: (id: number) => `ieo-lock:${id}`,
  unlock: (id: number) => `ieo-unlock:${id}`,
};

/**
 * ieo/pay: an allotted user pays allotment × IEO price within the payment window. The payment is held in the user's
 * coin account until listing, when it is posted to `ieo_sales` and the coins are credited. Paying twice (a retry, or
 * two taps at once) pays once: the second finds the order paid and answers it as it is.
 */
export async function payIeo(s: IeoServices, userId: number, id: number) {
  const { db } = s.database;
  const found = await withIeo(db)
    .selectFrom('ieo_subscriptions')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!found) throw new BusinessError('ieoOrderNotFound', { field: 'id' });
  const project = await projectById(db, found.project_id);
  if (!project) throw new Error(`ieo project ${found.project_id} missing`);
  const row = await ledgerEdge(
    () =>
      writeTransaction(s.database, async (trx) => {
        // The project first (shared on PostgreSQL): the lapse step locks it for update, so a payment and the lapse of
        // the same window never interleave.
        const current = await withIeo(trx)
          .selectFrom('ieo_projects')
          .select(['lapsed_at', 'pay_until'])
          .where('id', '=', project.id)
          .$if(s.database.kind === 'postgres', (qb) => qb.forShare())
          .executeTakeFirstOrThrow();
        const sub = await withIeo(trx)
          .selectFrom('ieo_subscriptions')
          .selectAll()
          .where('id', '=', id)
          .$if(s.database.kind === 'postgres', (qb) => qb.forUpdate())
          .executeTakeFirstOrThrow();
        if (sub.phase === 'paid') return sub;
        if (sub.phase !== 'allotted' || sub.payment === null) throw new BusinessError('ieoNotPayable', { field: 'id' });
        const at = s.now();
        // The window is [allotment, pay_until): the lapse runs at pay_until, so a payment at that moment is late.
        if (current.lapsed_at !== null || at >= current.pay_until) {
          throw new BusinessError('ieoPayWindowClosed', { field: 'id' });
        }
        const hold = await s.ledger.within(trx).placeHold({
          userId,
          requestId: ieoLedgerIds.pay(sub.id),
          kind: 'ieo_payment',
          type: 'coin',
          currency: IEO_PAY_CURRENCY,
          amount: sub.payment,
          ref: `ieo ${project.coin} ${sub.id}`,
        });
        const next = { phase: 'paid' as const, pay_hold_id: hold.holdId, paid_at: at, updated_at: at };
        await withIeo(trx).updateTable('ieo_subscriptions').set(next).where('id', '=', sub.id).execute();
        const paid = { ...sub, ...next };
        await recordUserEvent(trx, { userId, kind: IEO_ORDER_EVENT, data: orderWire(paid, project), at });
        return paid;
      }),
    { insufficientBalance: 'id' },
  );
  return orderWire(row, project);
}
