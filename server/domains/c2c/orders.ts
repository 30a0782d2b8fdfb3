import type { z } from 'zod/mini';
import type { C2cOrder, c2cOrderAddRequest, c2cOrderListRequest } from '../../../protocol/c2c';
import { c2cFiatAmount, c2cLimitProblem, c2cPayUntil } from '../../../protocol/rules/c2c';
import { toUnits } from '../../../protocol/rules/spot';
import { currencyScale, isLedgerError } from '../../ledger';
import { isUniqueViolation } from '../../platform/db/connect';
import { cursorPage } from '../../platform/db/paging';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { confirmClaimedRequest } from '../../platform/request-ids';
import { sha256 } from '../../platform/security/digest';
import { assertDataKey } from '../bank-cards';
import { openOrderConversation } from '../chat';
import { adOffers, lockedAd } from './ads';
import {
  announceOrder,
  buyerNickname,
  type C2cOrderRow,
  type C2cRole,
  type C2cServices,
  c2cLedgerIds,
  nicknames,
  openPayMethods,
  orderSn,
  orderWire,
  sealPayInfo,
} from './services';
import { withC2c } from './tables';

export type C2cOrderAddInput = z.output<typeof c2cOrderAddRequest>;
export type C2cOrderListInput = z.output<typeof c2cOrderListRequest>;

/** Statuses in which an order is still open (its coins in escrow). */
export const OPEN_STATUSES = [1, 2, 4] as const;

async function orderByRequest(s: C2cServices, buyerId: number, requestId: string) {
  return withC2c(s.database.db)
    .selectFrom('c2c_orders')
    .selectAll()
    .where('buyer_id', '=', buyerId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
}

/** The earlier order of a retried request: the same order when the details match, else a refusal. */
function replayed(s: C2cServices, row: C2cOrderRow, digest: string): C2cOrder {
  if (row.request_digest !== digest) throw new BusinessError('requestIdReused');
  return orderWire(row, 'buyer', s.vault);
}

/**
 * ctc/order/add: a buyer orders `quantity` coins from an open ad, paying with one of its methods. The quantity is
 * held in escrow from the merchant's coin account at once, in the transaction that creates the order and takes the
 * quantity from the ad (under the ad's lock, so two orders for the last coins cannot both have them). The order's
 * chat opens with it. A retry with the same request id returns the same order.
 */
export async function addOrder(s: C2cServices, buyerId: number, input: C2cOrderAddInput): Promise<C2cOrder> {
  const digest = sha256(JSON.stringify([input.ad_id, input.quantity, input.pay_type]));
  const earlier = await orderByRequest(s, buyerId, input.request_id);
  if (earlier) return replayed(s, earlier, digest);
  const buyer = await s.database.db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('id', '=', buyerId)
    .executeTakeFirstOrThrow();
  try {
    const result = await writeTransaction(s.database, async (trx) => {
      // The chosen method is sealed again for the order: only under the database's data key (see saveAd).
      await assertDataKey(trx, s.vault, s.database.kind === 'postgres');
      const ad = await lockedAd(s, trx, input.ad_id);
      // The same request sent twice at once waited here for the first one: it finds that order now.
      const first = await withC2c(trx)
        .selectFrom('c2c_orders')
        .selectAll()
        .where('buyer_id', '=', buyerId)
        .where('request_id', '=', input.request_id)
        .executeTakeFirst();
      if (first) return { row: first, replay: true };
      if (ad?.state !== 'open') throw new BusinessError('c2cAdNotFound', { field: 'ad_id' });
      if (ad.merchant_id === buyerId) throw new BusinessError('c2cOwnAd', { field: 'ad_id' });
      const scale = currencyScale(ad.coin);
      const units = toUnits(input.quantity, scale);
      if (units === null) throw new BusinessError('amountTooPrecise', { field: 'quantity' });
      if (units <= 0n) throw new BusinessError('amountNotPositive', { field: 'quantity' });
      const amount = c2cFiatAmount(units, scale, BigInt(ad.price));
      const limit = c2cLimitProblem(amount, BigInt(ad.min_fiat), BigInt(ad.max_fiat));
      if (limit) throw new BusinessError(limit, { field: 'quantity' });
      const method = openPayMethods(s.vault, ad).find((m) => m.type === input.pay_type);
      if (!method) throw new BusinessError('c2cPayTypeInvalid', { field: 'pay_type' });
      const open = await withC2c(trx)
        .selectFrom('c2c_orders')
        .select('id')
        .where('ad_id', '=', ad.id)
        .where('buyer_id', '=', buyerId)
        .where('status', 'in', [...OPEN_STATUSES])
        .executeTakeFirst();
      if (open) throw new BusinessError('c2cOrderOpen', { field: 'ad_id' });
      if (!adOffers(ad, units)) throw new BusinessError('c2cSoldOut', { field: 'quantity' });

      const at = s.now();
      const merchantName = (await nicknames(trx, [ad.merchant_id])).get(ad.merchant_id) ?? '';
      // With the effect: a success always leaves its request-id claim confirmed (platform/request-ids).
      await confirmClaimedRequest(trx, buyerId);
      const inserted = await withC2c(trx)
        .insertInto('c2c_orders')
        .values({
          ad_id: ad.id,
          merchant_id: ad.merchant_id,
          buyer_id: buyerId,
          coin: ad.coin,
          fiat: ad.fiat,
          price: ad.price,
          quantity: Number(units),
          amount: Number(amount),
          min_fiat: ad.min_fiat,
          max_fiat: ad.max_fiat,
          pay_type: method.type,
          pay_info_enc: sealPayInfo(s.vault, ad.merchant_id, method),
          merchant_nickname: merchantName,
          buyer_nickname: buyerNickname(buyer),
          status: 1,
          hold_id: null,
          conversation_id: null,
          request_id: input.request_id,
          request_digest: digest,
          created_at: at,
          pay_until: c2cPayUntil(at),
          paid_at: null,
          completed_at: null,
          cancelled_at: null,
          cancel_reason: null,
          appeal_by: null,
          appeal_reason: null,
          appeal_opened_at: null,
          appeal_decision: null,
          appeal_decision_reason: null,
          appeal_decided_at: null,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      // Taken from the ad only while enough is left: the same condition as above, now as the write's guard.
      const took = await withC2c(trx)
        .updateTable('c2c_ads')
        .set((eb) => ({ taken: eb('taken', '+', Number(units)), updated_at: at }))
        .where('id', '=', ad.id)
        .where((eb) => eb(eb('taken', '+', Number(units)), '<=', eb.ref('amount')))
        .executeTakeFirst();
      if (Number(took.numUpdatedRows) !== 1) throw new BusinessError('c2cSoldOut', { field: 'quantity' });
      let holdId: number | null;
      try {
        const hold = await s.ledger.within(trx).placeHold({
          userId: ad.merchant_id,
          requestId: c2cLedgerIds.escrow(inserted.id),
          kind: 'c2c_escrow',
          type: 'coin',
          currency: ad.coin,
          amount: Number(units),
          ref: `c2c ${orderSn(inserted.id)}`,
        });
        holdId = hold.holdId;
      } catch (err) {
        // The merchant no longer has the coins the ad offers: for the buyer, the ad is sold out.
        if (isLedgerError(err) && err.key === 'insufficientBalance') {
          throw new BusinessError('c2cSoldOut', { field: 'quantity' });
        }
        throw err;
      }
      const conversationId = await openOrderConversation(trx, {
        orderId: inserted.id,
        buyerId,
        merchantId: ad.merchant_id,
        buyerName: inserted.buyer_nickname,
        merchantName,
        at,
      });
      const row = { ...inserted, hold_id: holdId, conversation_id: conversationId };
      await withC2c(trx)
        .updateTable('c2c_orders')
        .set({ hold_id: holdId, conversation_id: conversationId })
        .where('id', '=', inserted.id)
        .execute();
      await announceOrder(trx, row, at);
      return { row, replay: false };
    });
    return result.replay ? replayed(s, result.row, digest) : orderWire(result.row, 'buyer', s.vault);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Two sends of one request at once: the first one's order. Otherwise a second open order of this buyer and ad.
    const first = await orderByRequest(s, buyerId, input.request_id);
    if (first) return replayed(s, first, digest);
    throw new BusinessError('c2cOrderOpen', { field: 'ad_id' });
  }
}

/** ctc/order/list: the caller's orders on one side (buyer by default), newest first. */
export async function listOrders(
  s: C2cServices,
  userId: number,
  input: C2cOrderListInput,
): Promise<{ orders: C2cOrder[]; next_before_id: number | null }> {
  const side: C2cRole = input.side ?? 'buyer';
  const limit = input.limit ?? 20;
  const rows = await withC2c(s.database.db)
    .selectFrom('c2c_orders')
    .selectAll()
    .where(side === 'buyer' ? 'buyer_id' : 'merchant_id', '=', userId)
    .$if(input.status !== undefined, (qb) => qb.where('status', 'in', input.status ?? []))
    .$if(input.before_id !== undefined, (qb) => qb.where('id', '<', input.before_id ?? 0))
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const { page, next_before_id } = cursorPage(rows, limit);
  return { orders: page.map((row) => orderWire(row, side, s.vault)), next_before_id };
}

/** The role of `userId` in an order, or null when it is neither side's. */
export const roleIn = (row: Pick<C2cOrderRow, 'buyer_id' | 'merchant_id'>, userId: number): C2cRole | null =>
  row.buyer_id === userId ? 'buyer' : row.merchant_id === userId ? 'merchant' : null;

/** ctc/order/info: an order of the caller's (either side); anyone else's does not exist for them. */
export async function orderInfo(s: C2cServices, userId: number, id: number): Promise<C2cOrder> {
  const row = await withC2c(s.database.db).selectFrom('c2c_orders').selectAll().where('id', '=', id).executeTakeFirst();
  const role = row ? roleIn(row, userId) : null;
  if (!row || !role) throw new BusinessError('c2cOrderNotFound', { field: 'id' });
  return orderWire(row, role, s.vault);
}

/** The caller's open orders on both sides, newest first (the `c2c` topic's snapshot). */
export async function openOrders(s: C2cServices, userId: number): Promise<C2cOrder[]> {
  const rows = await withC2c(s.database.db)
    .selectFrom('c2c_orders')
    .selectAll()
    .where((eb) => eb.or([eb('buyer_id', '=', userId), eb('merchant_id', '=', userId)]))
    .where('status', 'in', [...OPEN_STATUSES])
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
  return rows.map((row) => orderWire(row, roleIn(row, userId) ?? 'buyer', s.vault));
}
