import type { z } from 'zod';
import { fromUnits, limitBuyHold, marketBuyHold, orderValueAtLeastMin, toUnits } from '../../../protocol/rules/spot';
import { type placeOrderRequest, SPOT_ORDER_EVENT } from '../../../protocol/spot';
import { currencyScale, isLedgerError, type Ledger } from '../../ledger';
import type { Instrument, MarketFeed } from '../../market';
import type { DatabaseHandle } from '../../platform/db/connect';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { recordUserEvent } from '../../platform/realtime/user-events';
import { confirmClaimedRequest } from '../../platform/request-ids';
import { sha256 } from '../../platform/security/digest';
import { heldCurrency, type SpotOrderRow, toWire } from './orders';
import { readTerms, spotInstrument, type Terms } from './terms';

export type PlaceOrderInput = z.output<typeof placeOrderRequest>;

export interface SpotServices {
  database: DatabaseHandle;
  ledger: Ledger;
  feed: MarketFeed | undefined;
  now: () => number;
  /** Told of every order this process accepted, so the engine (when it leads here) need not wait for its next scan. */
  onAccepted?: (row: SpotOrderRow) => void;
}

/** The ledger's request ids of an order's money movements: unique per user, so each applies once. */
export const ledgerIds = {
  hold: (requestId: string) => `spot:${requestId}`,
  fillHold: (orderId: number) => `spot-fill:${orderId}`,
  fillLegs: (orderId: number) => `spot-legs:${orderId}`,
  release: (orderId: number) => `spot-release:${orderId}`,
};

const pairSteps = (i: Instrument) => ({ priceScale: i.priceScale, qtyScale: i.qtyScale });

/** A positive quantity on the pair's step, or the user's message. */
function quantityOf(text: string | undefined, i: Instrument, side: 'buy' | 'sell'): bigint {
  if (!text)
    throw new BusinessError(side === 'sell' ? 'soldQuantityRequired' : 'buyQuantityRequired', { field: 'qty' });
  const units = toUnits(text, i.qtyScale);
  if (units === null) throw new BusinessError('spotQtyStep', { field: 'qty' });
  if (units <= 0n)
    throw new BusinessError(side === 'sell' ? 'soldQuantityRequired' : 'buyQuantityRequired', { field: 'qty' });
  return units;
}

function limitPriceOf(text: string | undefined, i: Instrument): bigint {
  if (!text) throw new BusinessError('limitPriceRequired', { field: 'price' });
  const units = toUnits(text, i.priceScale);
  if (units === null || units <= 0n) throw new BusinessError('spotPriceStep', { field: 'price' });
  return units;
}

/** What the order holds, in ledger minor units of its held currency (RULES "Spot": limit funds held). */
function holdFor(
  input: PlaceOrderInput,
  i: Instrument,
  terms: Terms,
  last: bigint | undefined,
): { hold: bigint; qty: bigint | null; amount: bigint | null; price: bigint | null } {
  const pair = pairSteps(i);
  const needLast = (): bigint => {
    if (last === undefined) throw new BusinessError('spotNoPrice', { field: 'symbol' });
    return last;
  };
  if (input.side === 'buy' && input.mode === 'amount') {
    const amount = input.amount ? toUnits(input.amount, terms.quoteScale) : null;
    if (amount === null || amount <= 0n) throw new BusinessError('invalidPurchase', { field: 'amount' });
    const min = toUnits(terms.minValue, terms.quoteScale) ?? 0n;
    if (amount < min) throw new BusinessError('spotMinValue', { field: 'amount', data: { min: terms.minValue } });
    needLast();
    return { hold: amount, qty: null, amount, price: null };
  }
  const qty = quantityOf(input.qty, i, input.side);
  const price = input.type === 'limit' ? limitPriceOf(input.price, i) : null;
  const reference = price ?? needLast();
  if (!orderValueAtLeastMin(qty, reference, pair, terms)) {
    throw new BusinessError('spotMinValue', { field: 'qty', data: { min: terms.minValue } });
  }
  if (input.side === 'sell') {
    // The coin's ledger scale is at least the pair's quantity scale: the quantity moves exactly.
    const shift = currencyScale(i.symbol) - i.qtyScale;
    return { hold: qty * 10n ** BigInt(shift), qty, amount: null, price };
  }
  const hold = price !== null ? limitBuyHold(qty, price, pair, terms) : marketBuyHold(qty, reference, pair, terms);
  return { hold, qty, amount: null, price };
}

/**
 * coin/trade: checks the order (SPEC 5 and RULES "Spot", in that order: quantity given and on step, price on step,
 * minimum value, then the balance of the side), holds its funds in the coin account and records it as waiting for
 * its entry tick, all in one transaction. A retry with the same request id returns the order it placed.
 */
export async function placeOrder(s: SpotServices, userId: number, input: PlaceOrderInput) {
  const instrument = spotInstrument(input.symbol);
  if (!instrument) throw new BusinessError('spotPairUnsupported', { field: 'symbol' });
  // Without a market feed no tick will come: the order could only wait and be cancelled.
  if (!s.feed) throw new BusinessError('spotNoPrice', { field: 'symbol' });
  const db = s.database.db;
  const digest = sha256(
    JSON.stringify([input.symbol, input.side, input.type, input.mode, input.qty, input.amount, input.price]),
  );
  const existing = await replayOf(s, userId, input.request_id, digest);
  if (existing) return toWire(existing);

  const terms = await readTerms(db);
  const lastText = s.feed?.quote(instrument.symbol)?.last;
  const last = lastText === undefined ? undefined : (toUnits(lastText, instrument.priceScale) ?? undefined);
  const { hold, qty, amount, price } = holdFor(input, instrument, terms, last);
  const currency = heldCurrency({ side: input.side, symbol: instrument.symbol });
  const balance = (await s.ledger.balances(userId)).find((b) => b.type === 'coin' && b.currency === currency);
  const available = BigInt(balance?.available ?? 0);
  const short = input.side === 'sell' ? 'insufficientSellable' : 'insufficientBalance';
  if (available === 0n) throw new BusinessError('availableZero', { field: input.side === 'sell' ? 'qty' : 'amount' });
  if (available < hold) throw new BusinessError(short, { field: input.mode === 'amount' ? 'amount' : 'qty' });
  if (hold > BigInt(Number.MAX_SAFE_INTEGER)) throw new BusinessError('amountTooLarge', { field: 'qty' });

  const format = (units: bigint | null, scale: number) => (units === null ? null : fromUnits(units, scale));
  let row: SpotOrderRow;
  try {
    row = await writeTransaction(s.database, async (trx) => {
      const at = s.now();
      const receipt = await s.ledger.within(trx).placeHold({
        userId,
        requestId: ledgerIds.hold(input.request_id),
        kind: 'order',
        type: 'coin',
        currency,
        amount: Number(hold),
        ref: `spot ${input.side} ${instrument.symbol}`,
      });
      if (receipt.replayed || receipt.holdId === null) {
        // A concurrent retry of this request placed it first (the ledger's request id waited for it): return its order.
        const first = await trx
          .selectFrom('spot_orders')
          .selectAll()
          .where('user_id', '=', userId)
          .where('request_id', '=', input.request_id)
          .executeTakeFirst();
        if (!first) throw new BusinessError('requestIdReused');
        return first;
      }
      // With the effect: a success always leaves its request-id claim confirmed (platform/request-ids).
      await confirmClaimedRequest(trx, userId);
      const inserted = await trx
        .insertInto('spot_orders')
        .values({
          user_id: userId,
          symbol: instrument.symbol,
          side: input.side,
          type: input.type,
          mode: input.side === 'buy' ? input.mode : 'quantity',
          qty: format(qty, instrument.qtyScale),
          amount: format(amount, terms.quoteScale),
          price: format(price, instrument.priceScale),
          fee_rate: terms.feeRate,
          price_band: terms.priceBand,
          hold_id: receipt.holdId,
          held: Number(hold),
          state: 'waiting',
          cancel_reason: null,
          request_id: input.request_id,
          request_digest: digest,
          accepted_at: at,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordUserEvent(trx, { userId, kind: SPOT_ORDER_EVENT, data: toWire(inserted), at });
      return inserted;
    });
  } catch (err) {
    if (isLedgerError(err) && err.key === 'insufficientBalance') throw new BusinessError(short, { field: 'qty' });
    if (isLedgerError(err)) throw new BusinessError(err.key);
    throw err;
  }
  s.onAccepted?.(row);
  return toWire(row);
}

/** The order an earlier request with this id placed; another body under the same id is refused. */
async function replayOf(s: SpotServices, userId: number, requestId: string, digest: string) {
  const row = await s.database.db
    .selectFrom('spot_orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
  if (row && row.request_digest !== digest) throw new BusinessError('requestIdReused');
  return row;
}
