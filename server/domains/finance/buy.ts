import type { z } from 'zod/mini';
import { FINANCE_ORDER_EVENT, type FinanceFamily, type financeBuyRequest } from '../../../protocol/finance';
import { dailyInterest, interestDueAt, interestStartDay, promisedYield } from '../../../protocol/rules/finance';
import { isLedgerError, type Ledger, ledgerEdge, parseAmount } from '../../ledger';
import type { DatabaseHandle } from '../../platform/db/connect';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { recordUserEvent } from '../../platform/realtime/user-events';
import { confirmClaimedRequest } from '../../platform/request-ids';
import { sha256 } from '../../platform/security/digest';
import { lockFinanceBooks } from './locks';
import { financeLedgerIds, orderWire } from './orders';
import { capacityOf, freeReserve, productById, productTerms } from './products';
import { withFinance } from './tables';

export type FinanceBuyInput = z.output<typeof financeBuyRequest>;

export interface FinanceServices {
  database: DatabaseHandle;
  ledger: Ledger;
  now: () => number;
}

/**
 * lh/deposit and lh/send/order: checks the product, the amount (currency decimals, minimum, maximum), then in one
 * transaction holds the principal in the trust account and moves the order's whole promised yield from the reserve
 * into `finance_yield`. The ledger refuses the second when the reserve is short, so an order is only ever sold when
 * its yield is funded (RULES "Finance"). A retry with the same request id returns the order it placed.
 */
export async function buyFinance(s: FinanceServices, userId: number, family: FinanceFamily, input: FinanceBuyInput) {
  const { db } = s.database;
  const product = await productById(db, family, input.product_id);
  if (!product) throw new BusinessError('financeProductNotFound', { field: 'product_id' });
  const digest = sha256(JSON.stringify([family, input.product_id, input.amount]));
  const earlier = await withFinance(db)
    .selectFrom('finance_orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where('request_id', '=', input.request_id)
    .executeTakeFirst();
  if (earlier) {
    if (earlier.request_digest !== digest) throw new BusinessError('requestIdReused');
    return orderWire(earlier, s.now());
  }
  if (product.on_sale !== 1) throw new BusinessError('financeSoldOut', { field: 'product_id' });
  const parsed = parseAmount(product.currency, input.amount);
  if (!parsed.ok) throw new BusinessError(parsed.error, { field: 'amount' });
  const amount = BigInt(parsed.units);
  if (amount < BigInt(product.min_amount)) throw new BusinessError('financeAmountBelowMin', { field: 'amount' });
  if (amount > BigInt(product.max_amount)) throw new BusinessError('financeAmountAboveMax', { field: 'amount' });
  const terms = productTerms(product);
  const daily = dailyInterest(amount, terms.dailyRate);
  const promised = promisedYield(amount, terms);
  // A quick answer before any write; the ledger checks again under lock.
  if (capacityOf(product, await freeReserve(db, product.currency)) < amount) {
    throw new BusinessError('financeSoldOut', { field: 'amount' });
  }

  const row = await ledgerEdge(
    () =>
      writeTransaction(s.database, async (trx) => {
        await lockFinanceBooks(trx, s.database.kind, product.currency);
        const ledger = s.ledger.within(trx);
        const at = s.now();
        const hold = await ledger.placeHold({
          userId,
          requestId: financeLedgerIds.principal(input.request_id),
          kind: 'principal',
          type: 'trust',
          currency: product.currency,
          amount: parsed.units,
          ref: `finance ${product.id}`,
        });
        if (hold.replayed || hold.holdId === null) {
          const first = await withFinance(trx)
            .selectFrom('finance_orders')
            .selectAll()
            .where('user_id', '=', userId)
            .where('request_id', '=', input.request_id)
            .executeTakeFirst();
          if (!first) throw new BusinessError('requestIdReused');
          return first;
        }
        if (promised > 0n) {
          try {
            await ledger.post({
              userId,
              requestId: financeLedgerIds.commit(input.request_id),
              kind: 'adjustment',
              legs: [
                { owner: { platform: 'finance_reserve' }, currency: product.currency, amount: -Number(promised) },
                { owner: { platform: 'finance_yield' }, currency: product.currency, amount: Number(promised) },
              ],
            });
          } catch (err) {
            // The only account of this entry that can refuse is the reserve: it does not cover the promise.
            if (isLedgerError(err) && err.key === 'insufficientBalance') {
              throw new BusinessError('financeSoldOut', { field: 'amount' });
            }
            throw err;
          }
        }
        const startDay = interestStartDay(at);
        // With the effect: a success always leaves its request-id claim confirmed (platform/request-ids).
        await confirmClaimedRequest(trx, userId);
        const inserted = await withFinance(trx)
          .insertInto('finance_orders')
          .values({
            user_id: userId,
            product_id: product.id,
            family,
            name: product.name,
            currency: product.currency,
            amount: parsed.units,
            daily_rate: terms.dailyRate,
            cycle_days: terms.cycleDays,
            penalty_kind: terms.penalty.kind,
            penalty_value: terms.penalty.value,
            daily_interest: Number(daily),
            start_day: startDay,
            days_paid: 0,
            income: 0,
            state: 'hosting',
            next_due_at: interestDueAt(startDay, 1),
            principal_hold_id: hold.holdId,
            penalty: null,
            request_id: input.request_id,
            request_digest: digest,
            created_at: at,
            updated_at: at,
            ended_at: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordUserEvent(trx, { userId, kind: FINANCE_ORDER_EVENT, data: orderWire(inserted, at), at });
        return inserted;
      }),
    { insufficientBalance: 'amount' },
  );
  return orderWire(row, s.now());
}
