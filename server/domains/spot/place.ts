import type { Kysely } from 'kysely';
import type { z } from 'zod/mini';
import { fromUnits, limitBuyHold, marketBuyHold, orderValueAtLeastMin, toUnits } from '../../../protocol/rules/spot';
import { type placeOrderRequest, SPOT_ORDER_EVENT } from '../../../protocol/spot';
import { currencyScale, type Ledger } from '../../ledger';
import type { Instrument, MarketFeed } from '../../market';
import type { DatabaseHandle } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import { sha256 } from '../../platform/security/digest';
import { answeredBefore, submitTrade } from '../../trading';
import { heldCurrency, type SpotOrderRow, toWire } from './orders';
import { withSpot } from './tables';
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
 * minimum value, then the balance of the side), then the trade lifecycle every product shares (trading/submit.ts)
 * holds its funds in the coin account and records it as waiting for its entry tick, all in one transaction. A retry
 * with the same request id returns the order it placed.
 */
export async function placeOrder(s: SpotServices, userId: number, input: PlaceOrderInput) {
  const instrument = spotInstrument(input.symbol);
  if (!instrument) throw new BusinessError('spotPairUnsupported', { field: 'symbol' });
  const digest = sha256(
    JSON.stringify([input.symbol, input.side, input.type, input.mode, input.qty, input.amount, input.price]),
  );
  const byRequest = (from: Kysely<Database>) =>
    withSpot(from)
      .selectFrom('spot_orders')
      .selectAll()
      .where('user_id', '=', userId)
      .where('request_id', '=', input.request_id)
      .executeTakeFirst();
  // A retry is answered before anything that may have changed since (the feed, the price) is judged again.
  const earlier = await answeredBefore(s, { find: byRequest, digest });
  if (earlier) return toWire(earlier);
  // Without a market feed no tick will come: the order could only wait and be cancelled.
  const feed = s.feed;
  if (!feed) throw new BusinessError('spotNoPrice', { field: 'symbol' });

  const plan = async () => {
    const terms = await readTerms(s.database.db);
    const lastText = feed.quote(instrument.symbol)?.last;
    const last = lastText === undefined ? undefined : (toUnits(lastText, instrument.priceScale) ?? undefined);
    const order = holdFor(input, instrument, terms, last);
    return {
      book: 'real' as const,
      type: 'coin' as const,
      currency: heldCurrency({ side: input.side, symbol: instrument.symbol }),
      amount: order.hold,
      ref: `spot ${input.side} ${instrument.symbol}`,
      field: input.mode === 'amount' ? 'amount' : 'qty',
      short: input.side === 'sell' ? ('insufficientSellable' as const) : ('insufficientBalance' as const),
      empty: { key: 'availableZero' as const, field: input.side === 'sell' ? 'qty' : 'amount' },
      order,
      terms,
    };
  };

  const format = (units: bigint | null, scale: number) => (units === null ? null : fromUnits(units, scale));
  return submitTrade(s, {
    userId,
    requestId: input.request_id,
    digest,
    holdRequestId: ledgerIds.hold(input.request_id),
    find: byRequest,
    hold: plan,
    handOver: (trx, { holdId, at, plan: { order, terms } }) =>
      withSpot(trx)
        .insertInto('spot_orders')
        .values({
          user_id: userId,
          symbol: instrument.symbol,
          side: input.side,
          type: input.type,
          mode: input.side === 'buy' ? input.mode : 'quantity',
          qty: format(order.qty, instrument.qtyScale),
          amount: format(order.amount, terms.quoteScale),
          price: format(order.price, instrument.priceScale),
          fee_rate: terms.feeRate,
          price_band: terms.priceBand,
          hold_id: holdId,
          held: Number(order.hold),
          state: 'waiting',
          cancel_reason: null,
          request_id: input.request_id,
          request_digest: digest,
          accepted_at: at,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    event: SPOT_ORDER_EVENT,
    toWire,
    accepted: s.onAccepted,
  });
}
