import { z } from 'zod/mini';
import { call, none } from './call-spec';
import { beforeIdField, listLimitField, optionalTextField, recordIdField, tradeRequestIdField } from './fields';
import { decimalString, symbolField } from './market';
import { recordedTick } from './price-record';

/**
 * Spot trading (RULES.md "Spot", SPEC 3, 4 "Spot orders", 5 "Spot", 8). The platform is the counterparty at the
 * recorded feed price: an accepted order waits for its entry tick (the first recorded tick of its pair after
 * acceptance); a limit order then rests until a tick crosses its price. Every amount on the wire is an exact decimal
 * string; messages are keys of the `errors` locale namespace.
 */

export const SPOT_QUOTE = 'USDT' as const;
export const ORDER_SIDES = ['buy', 'sell'] as const;
export type OrderSide = (typeof ORDER_SIDES)[number];
export const ORDER_TYPES = ['market', 'limit'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
/** A buy is given as a quantity of the coin or (market only) as the USDT amount to spend. */
export const BUY_MODES = ['quantity', 'amount'] as const;
export type BuyMode = (typeof BUY_MODES)[number];

/**
 * Order states: `waiting` (accepted, waiting for its entry tick), `pending` (a limit order resting), `completed`,
 * `cancelled`. SPEC 4 shows waiting orders as pending.
 */
export const SPOT_ORDER_STATES = ['waiting', 'pending', 'completed', 'cancelled'] as const;
export type SpotOrderState = (typeof SPOT_ORDER_STATES)[number];
/** Why an order was cancelled: by its owner, no tick within the wait (RULES "No tick, no trade"), or price protection. */
export const CANCEL_REASONS = ['user', 'no_tick', 'price_band'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** RULES "No tick, no trade": an order without an entry tick this long after acceptance is cancelled. */
export const ENTRY_TICK_WAIT_MS = 10_000;

/** One tradable pair (coin against USDT) with its steps. */
export const spotPair = z.object({
  symbol: z.string(),
  quote: z.literal(SPOT_QUOTE),
  /** Price step (the instrument's tick) and quantity step, as decimals. */
  price_step: decimalString,
  qty_step: decimalString,
  price_scale: z.number().check(z.int()),
  qty_scale: z.number().check(z.int()),
});
export type SpotPair = z.infer<typeof spotPair>;

/**
 * coin/trade/config (an addition): the terms in force for new orders. `fee_rate` is a fraction ('0.001' = 0.1%);
 * `price_band` is the protection of a market buy by quantity: its cost is held at the last price plus this fraction,
 * and an entry tick above that cancels it (reason `price_band`).
 */
export const spotConfigResponse = z.object({
  fee_rate: decimalString,
  min_value: decimalString,
  price_band: decimalString,
  /** Decimals of USDT in the ledger (what values and fees are rounded to). */
  quote_scale: z.number().check(z.int()),
  pairs: z.array(spotPair),
});
export type SpotConfig = z.infer<typeof spotConfigResponse>;

/**
 * coin/trade: place an order. `qty` for sells and buys by quantity; `amount` (USDT) for a market buy by amount;
 * `price` for limit orders. Step, minimum value and balance are checked by the server with the pair's terms
 * (protocol/rules/spot.ts); `request_id` makes a retry apply once.
 */
export const placeOrderRequest = z
  .object({
    symbol: symbolField,
    side: z.enum(ORDER_SIDES, { error: 'invalidInput' }),
    type: z.enum(ORDER_TYPES, { error: 'invalidInput' }),
    mode: z._default(z.optional(z.enum(BUY_MODES, { error: 'invalidInput' })), 'quantity'),
    qty: optionalTextField(40),
    amount: optionalTextField(40),
    price: optionalTextField(40),
    request_id: tradeRequestIdField,
  })
  .check(
    z.superRefine((v, ctx) => {
      const byAmount = v.side === 'buy' && v.mode === 'amount';
      if (byAmount && v.type !== 'market') ctx.addIssue({ code: 'custom', message: 'invalidInput', path: ['mode'] });
      if (byAmount && !v.amount) ctx.addIssue({ code: 'custom', message: 'invalidPurchase', path: ['amount'] });
      if (!byAmount && !v.qty) {
        const message = v.side === 'sell' ? 'soldQuantityRequired' : 'buyQuantityRequired';
        ctx.addIssue({ code: 'custom', message, path: ['qty'] });
      }
      if (v.type === 'limit' && !v.price)
        ctx.addIssue({ code: 'custom', message: 'limitPriceRequired', path: ['price'] });
    }),
  );
export type PlaceOrderRequest = z.input<typeof placeOrderRequest>;

/** What a fill used and moved: its tick, the quantity, the USDT value and fee (RULES rounding), what the user paid or got. */
export const spotFill = z.object({
  tick: recordedTick,
  qty: decimalString,
  price: decimalString,
  value: decimalString,
  fee: decimalString,
  /** A buy: value + fee paid; a sell: value − fee received. */
  total: decimalString,
  at: z.number().check(z.int()),
});
export type SpotFill = z.infer<typeof spotFill>;

/** One order as its owner sees it. */
export const spotOrder = z.object({
  id: z.number().check(z.int()),
  symbol: z.string(),
  side: z.enum(ORDER_SIDES),
  type: z.enum(ORDER_TYPES),
  mode: z.enum(BUY_MODES),
  /** Requested quantity (null for a buy by amount). */
  qty: z.nullable(decimalString),
  /** USDT to spend (a buy by amount), else null. */
  amount: z.nullable(decimalString),
  /** Limit price, else null. */
  price: z.nullable(decimalString),
  /** The terms it was placed under. */
  fee_rate: decimalString,
  /** What is held for it while it is open: USDT for a buy, the coin for a sell ('0' once resolved). */
  held: decimalString,
  state: z.enum(SPOT_ORDER_STATES),
  cancel_reason: z.nullable(z.enum(CANCEL_REASONS)),
  fill: z.nullable(spotFill),
  request_id: z.string(),
  created_at: z.number().check(z.int()),
  updated_at: z.number().check(z.int()),
});
export type SpotOrder = z.infer<typeof spotOrder>;

export const cancelOrderRequest = z.object({ id: recordIdField });

/** coin/trade/list (an addition: SPEC lists no list call): open orders, or the history (completed and cancelled). */
export const ORDER_LISTS = ['open', 'history'] as const;
export type OrderList = (typeof ORDER_LISTS)[number];
export const listOrdersRequest = z.object({
  list: z.enum(ORDER_LISTS, { error: 'invalidInput' }),
  symbol: z.optional(symbolField),
  limit: listLimitField,
  before_id: beforeIdField,
});
export const listOrdersResponse = z.object({
  orders: z.array(spotOrder),
  /** Cursor of the next page (older orders), null at the end. */
  next_before_id: z.nullable(z.number().check(z.int())),
});
export type SpotOrderPage = z.infer<typeof listOrdersResponse>;

/** The private `orders` topic: a snapshot of the open orders, then each changed order. */
export const ORDERS_TOPIC = 'orders' as const;
export const SPOT_ORDER_EVENT = 'spot_order' as const;
export const ordersTopicMessage = z.union([
  z.object({ kind: z.literal('snapshot'), orders: z.array(spotOrder) }),
  z.object({ kind: z.literal('order'), order: spotOrder }),
]);
export type OrdersTopicMessage = z.infer<typeof ordersTopicMessage>;

export const spotCalls = {
  'coin/trade/config': call('GET', false, none, spotConfigResponse),
  'coin/trade': call('POST', true, placeOrderRequest, spotOrder),
  'coin/trade/cancel': call('PUT', true, cancelOrderRequest, spotOrder),
  'coin/trade/list': call('GET', true, listOrdersRequest, listOrdersResponse),
} as const;
