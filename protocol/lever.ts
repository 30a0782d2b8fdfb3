import { z } from 'zod/mini';
import { call, none } from './call-spec';
import { beforeIdField, listLimitField, optionalTextField, recordIdField, tradeRequestIdField } from './fields';
import { decimalString, signedDecimalString, symbolField } from './market';
import { recordedTick } from './price-record';
import { SIMULATOR_CURRENCY, simulatorBalanceResponse, TRADE_BOOKS } from './simulator';

/**
 * Lever: perpetual USDT-margined contracts (RULES.md "Lever", SPEC 2 lever pages, 3 "Lever order", 4 "Lever order
 * status", 5 "Lever", 7, 8). A position is long or short a number of lots, isolated or cross, opened at market (its
 * entry tick) or by a limit (the first tick that crosses it); protocol/rules/lever.ts computes its margin, P&L and
 * liquidation price. Every amount on the wire is an exact decimal string; messages are keys of the `errors` locale
 * namespace. The field names of a position follow SPEC 3, including its capitalised `Liquidation_Price` and
 * `Liquidation_Time`.
 */

export const LEVER_SIDES = ['long', 'short'] as const;
export type LeverSide = (typeof LEVER_SIDES)[number];
export const MARGIN_MODES = ['isolated', 'cross'] as const;
export type MarginMode = (typeof MARGIN_MODES)[number];
export const LEVER_ORDER_TYPES = ['market', 'limit'] as const;
export type LeverOrderType = (typeof LEVER_ORDER_TYPES)[number];
/** The book a position lives on: real money, or the simulator's practice funds (they never cross). */
export const LEVER_ACCOUNTS = TRADE_BOOKS;
export type LeverAccount = (typeof LEVER_ACCOUNTS)[number];
export const LEVER_CURRENCY = SIMULATOR_CURRENCY;

/**
 * SPEC 4 status numbers: 0 pending order (a market order waiting for its entry tick, or a limit open resting),
 * 1 holding, 2 closing (close accepted, waiting for its tick), 3 closed, 4 cancelled. `phase` tells the two kinds
 * of 0 apart: `waiting` (for the entry tick) and `pending` (a limit resting in the trigger book).
 */
export const LEVER_STATUSES = [0, 1, 2, 3, 4] as const;
export type LeverStatus = (typeof LEVER_STATUSES)[number];
export const LEVER_PHASES = ['waiting', 'pending', 'holding', 'closing', 'closed', 'cancelled'] as const;
export type LeverPhase = (typeof LEVER_PHASES)[number];
export const STATUS_OF_PHASE: Readonly<Record<LeverPhase, LeverStatus>> = {
  waiting: 0,
  pending: 0,
  holding: 1,
  closing: 2,
  closed: 3,
  cancelled: 4,
};
export const OPEN_LEVER_PHASES = ['waiting', 'pending', 'holding', 'closing'] as const satisfies readonly LeverPhase[];

/** Why a closed position closed: by its owner, its take-profit, its stop-loss, or liquidation (forced close). */
export const LEVER_CLOSE_REASONS = ['user', 'take_profit', 'stop_loss', 'liquidation'] as const;
export type LeverCloseReason = (typeof LEVER_CLOSE_REASONS)[number];
/** Why an order was cancelled before it opened: by its owner, no tick within the wait, or too little margin then. */
export const LEVER_CANCEL_REASONS = ['user', 'no_tick', 'insufficient_margin'] as const;
export type LeverCancelReason = (typeof LEVER_CANCEL_REASONS)[number];

/** One instrument on offer, with the terms a new position is opened under. */
export const leverInstrument = z.object({
  symbol: z.string(),
  /** Base quantity per lot. */
  contract_size: decimalString,
  leverages: z.array(z.number().check(z.int(), z.positive())),
  mmr: decimalString,
  fee_rate: decimalString,
  price_scale: z.number().check(z.int(), z.gte(0)),
  tick_size: decimalString,
});
export type LeverInstrument = z.infer<typeof leverInstrument>;

/** lever/deal: the instruments and their terms, and the caller's contract account of the chosen book. */
export const leverDealRequest = z.object({
  account: z._default(z.optional(z.enum(LEVER_ACCOUNTS, { error: 'invalidInput' })), 'real'),
});
export const leverDealResponse = z.object({
  currency: z.literal(LEVER_CURRENCY),
  /** Decimals of USDT in the ledger. */
  scale: z.number().check(z.int(), z.gte(0)),
  instruments: z.array(leverInstrument),
  /** The contract account's available balance (after every hold: margins and pending orders). */
  available: decimalString,
  /** The cross wallet: the balance cross positions share (available plus the cross margins held). */
  cross_wallet: decimalString,
});
export type LeverDeal = z.infer<typeof leverDealResponse>;

/** Lots: required (SPEC 5), a positive whole number. */
const lotsPattern = /^[1-9]\d{0,8}$/;

/**
 * lever/submit: open a position. The checks SPEC 5 and RULES fix, in the order a form shows them:
 * 1. lots given (`leverLotsRequired`) and a positive whole number (`leverLotsInvalid`);
 * 2. a limit order has a price (`leverPriceRequired`) on the tick (`leverPriceInvalid`);
 * 3. TP/SL are prices on the tick (`leverStopPriceInvalid`); the server checks their sides against the expected
 *    entry and the liquidation price (`leverTakeProfitSide`, `leverStopLossSide`, `leverStopLossBeyondLiquidation`);
 * 4. the leverage is one the instrument offers (`leverLeverageUnavailable`, server);
 * 5. the contract account covers the margin and the open fee (`insufficientBalance`, server).
 * The simulator needs no verification; the real account does (`verificationRequired`, SPEC 8).
 */
export const submitLeverRequest = z.pipe(
  z
    .object({
      symbol: symbolField,
      side: z.enum(LEVER_SIDES, { error: 'invalidInput' }),
      type: z.enum(LEVER_ORDER_TYPES, { error: 'invalidInput' }),
      margin_mode: z.enum(MARGIN_MODES, { error: 'invalidInput' }),
      lots: optionalTextField(12),
      leverage: z.pipe(
        z
          .string({ error: 'leverLeverageUnavailable' })
          .check(z.regex(/^[1-9]\d{0,3}$/, { error: 'leverLeverageUnavailable' })),
        z.transform(Number),
      ),
      price: optionalTextField(40),
      take_profit: optionalTextField(40),
      stop_loss: optionalTextField(40),
      account: z.enum(LEVER_ACCOUNTS, { error: 'invalidInput' }),
      request_id: tradeRequestIdField,
    })
    .check(
      z.superRefine((v, ctx) => {
        if (!v.lots) ctx.addIssue({ code: 'custom', message: 'leverLotsRequired', path: ['lots'] });
        else if (!lotsPattern.test(v.lots))
          ctx.addIssue({ code: 'custom', message: 'leverLotsInvalid', path: ['lots'] });
        if (v.type === 'limit') {
          if (!v.price) ctx.addIssue({ code: 'custom', message: 'leverPriceRequired', path: ['price'] });
          else if (!decimalString.safeParse(v.price).success) {
            ctx.addIssue({ code: 'custom', message: 'leverPriceInvalid', path: ['price'] });
          }
        }
        for (const key of ['take_profit', 'stop_loss'] as const) {
          const value = v[key];
          if (value && !decimalString.safeParse(value).success) {
            ctx.addIssue({ code: 'custom', message: 'leverStopPriceInvalid', path: [key] });
          }
        }
      }),
    ),
  z.transform((v) => ({ ...v, lots: Number(v.lots) })),
);
export type SubmitLeverRequest = z.input<typeof submitLeverRequest>;

/** One position (or order not yet open) as its owner sees it; SPEC 3 "Lever order" fields plus what re-checks it. */
export const leverPosition = z.object({
  id: z.number().check(z.int()),
  /** SPEC 3 "order number": shown to the user and support. */
  order_no: z.string(),
  /** SPEC 3 "product": the instrument. */
  symbol: z.string(),
  direction: z.enum(LEVER_SIDES),
  type: z.enum(LEVER_ORDER_TYPES),
  margin_mode: z.enum(MARGIN_MODES),
  account_type: z.enum(LEVER_ACCOUNTS),
  status: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  phase: z.enum(LEVER_PHASES),
  /** Lots, and SPEC 3 "quantity": lots × contract size in the base coin. */
  lots: z.number().check(z.int(), z.positive()),
  quantity: decimalString,
  contract_size: decimalString,
  leverage: z.number().check(z.int(), z.positive()),
  mmr: decimalString,
  fee_rate: decimalString,
  /** A limit open's price; null for a market order. */
  limit_price: z.nullable(decimalString),
  entry_price: z.nullable(decimalString),
  /** The exit price (SPEC 3 `close_offset_price`): the tick the position closed at. */
  close_offset_price: z.nullable(decimalString),
  profit_take_price: z.nullable(decimalString),
  stop_loss_price: z.nullable(decimalString),
  initial_margin: z.nullable(decimalString),
  additional_margin: decimalString,
  /** SPEC 3 "amount": the notional at entry (quantity × entry price). */
  amount: z.nullable(decimalString),
  /** Open fee plus close fee paid so far (SPEC 3 writes "commision"). */
  commission: decimalString,
  /** The fee paid at the open; null until the position opened. */
  open_fee: z.nullable(decimalString),
  /** The close fee paid (a liquidation or gap may leave it short of the rule's fee); null until it closed. */
  close_fee: z.nullable(decimalString),
  /** Liquidation price at the server's mark (isolated: fixed by the margin; cross: moves with the account); "--" = null. */
  Liquidation_Price: z.nullable(decimalString),
  /** When a liquidation closed it (server ms); null otherwise. */
  Liquidation_Time: z.nullable(z.number().check(z.int())),
  /** Unrealised P&L at the server's latest mark (`mark`) while holding; null otherwise. The worker recomputes it live. */
  floating_profit_or_loss: z.nullable(signedDecimalString),
  unrealized_pnl_percent: z.nullable(signedDecimalString),
  /** Realised P&L of a closed position (before fees). */
  realized_pnl: z.nullable(signedDecimalString),
  realized_pnl_percent: z.nullable(signedDecimalString),
  /**
   * What the position made or lost in all (rules closedNet): realised P&L minus both fees and minus what a liquidation
   * left to the insurance fund, which is exactly what it moved of its owner's money.
   */
  total_profit_or_loss: z.nullable(signedDecimalString),
  /** On a liquidation: the margin left that went to the insurance fund (negative: what the fund paid for a gap). */
  insurance: z.nullable(signedDecimalString),
  close_reason: z.nullable(z.enum(LEVER_CLOSE_REASONS)),
  cancel_reason: z.nullable(z.enum(LEVER_CANCEL_REASONS)),
  /** The recorded ticks that decided it: entry, and the exit of a close, trigger or liquidation. */
  entry: z.nullable(recordedTick),
  exit: z.nullable(recordedTick),
  /** The mark the floating values were computed at (the latest tick the server knew). */
  mark: z.nullable(recordedTick),
  open_position_time: z.nullable(z.number().check(z.int())),
  time_to_close_position: z.nullable(z.number().check(z.int())),
  request_id: z.string(),
  created_at: z.number().check(z.int()),
  updated_at: z.number().check(z.int()),
  /*
   * Partial closes (RULES "Partial close"). Optional on the wire type so that a position written before them still
   * reads; the server always sends them. A position that closed k of its lots stays the same row (same id, holding)
   * with fewer lots, the margin left and a recomputed LP; the closed part is a row of its own (closed, by `user`),
   * with its share of the margin and of the open fee, the position's entry tick and its own exit tick.
   */
  /** While closing: the lots the accepted close will close (null: all of them). */
  close_lots: z.optional(z.nullable(z.number().check(z.int(), z.positive()))),
  /** A closed part: the id of the position it was closed from; null for a position itself. */
  part_of: z.optional(z.nullable(z.number().check(z.int()))),
  /** The lots the position opened with (more than `lots` once parts were closed off it). */
  opened_lots: z.optional(z.number().check(z.int(), z.positive())),
  /**
   * The lots of the parts closed off the position before, in order (on a part: the parts before it). With
   * `opened_lots` and the entry tick they fix the position's initial margin and open fee (rules afterParts).
   */
  earlier_parts: z.optional(z.array(z.number().check(z.int(), z.positive()))),
  /** A closed part: the position just before this part was closed off it (the whole the shares were taken from). */
  part_basis: z.optional(
    z.nullable(
      z.object({
        lots: z.number().check(z.int(), z.positive()),
        initial_margin: decimalString,
        additional_margin: decimalString,
        open_fee: decimalString,
      }),
    ),
  ),
  /*
   * Reverses (RULES "Reverse"), optional on the wire type as the partial closes' fields are. lever/reverse closes the
   * whole position and, at the same tick, opens the same lots on the other side as a new row.
   */
  /** The close was asked as a reverse: while closing, the other side opens at its exit tick. */
  reverse: z.optional(z.boolean()),
  /** A row a reverse opened (holding, or cancelled `insufficient_margin`): the id of the position it reversed. */
  reversed_from: z.optional(z.nullable(z.number().check(z.int()))),
});
export type LeverPosition = z.infer<typeof leverPosition>;

/** lever/my_trade: `orders` (status 0), `positions` (1, 2) or `history` (3, 4), of one book, newest first. */
export const LEVER_LISTS = ['orders', 'positions', 'history'] as const;
export type LeverList = (typeof LEVER_LISTS)[number];
export const leverMyTradeRequest = z.object({
  list: z.enum(LEVER_LISTS, { error: 'invalidInput' }),
  account: z._default(z.optional(z.enum(LEVER_ACCOUNTS, { error: 'invalidInput' })), 'real'),
  limit: listLimitField,
  before_id: beforeIdField,
});
export type LeverMyTradeRequest = z.input<typeof leverMyTradeRequest>;
export const leverMyTradeResponse = z.object({
  positions: z.array(leverPosition),
  next_before_id: z.nullable(z.number().check(z.int())),
});
export type LeverPositionPage = z.infer<typeof leverMyTradeResponse>;

export const leverIdRequest = z.object({ id: recordIdField });

/**
 * lever/close: closes a holding position at the first recorded tick after the request, all of it or `lots` of it
 * (RULES "Partial close"): a positive whole number (`leverLotsInvalid`), at most the lots held (`leverCloseTooManyLots`,
 * server); absent, empty or equal to the lots held closes all. `request_id` makes a retry apply once: a part closed
 * twice would close twice as much. A position already closing takes no other close (`leverAlreadyClosing`); the
 * same full close again answers the position as it is.
 */
export const leverCloseRequest = z.object({
  id: recordIdField,
  lots: z.pipe(
    optionalTextField(12).check(z.refine((v) => v === undefined || lotsPattern.test(v), { error: 'leverLotsInvalid' })),
    z.transform((v) => (v === undefined ? undefined : Number(v))),
  ),
  request_id: tradeRequestIdField,
});
export type LeverCloseRequest = z.input<typeof leverCloseRequest>;

/**
 * lever/close_all: every holding position (status 1) of the caller's book is asked to close in full, each at the
 * first tick of its instrument after the request. Orders not yet open and positions already closing are left as they
 * are. Answers the positions it put into closing (none: an empty list).
 */
export const leverCloseAllRequest = z.object({
  account: z.enum(LEVER_ACCOUNTS, { error: 'invalidInput' }),
});
export const leverCloseAllResponse = z.object({ positions: z.array(leverPosition) });
export type LeverCloseAll = z.infer<typeof leverCloseAllResponse>;

/**
 * lever/reverse: closes the whole holding position at the first recorded tick after the request and, at that same
 * tick in the same transaction, opens a market position of the same lots, leverage and margin mode on the other side
 * (RULES "Reverse"), without TP/SL. When the margin and fee of the open are not there after the close, the open is
 * cancelled (`insufficient_margin`) and the close stands. Answers the position (closing); `request_id` makes a retry
 * answer it again. A position already closing takes no reverse (`leverAlreadyClosing`).
 */
export const leverReverseRequest = z.object({ id: recordIdField, request_id: tradeRequestIdField });
export type LeverReverseRequest = z.input<typeof leverReverseRequest>;

/** lever/setstop: new TP and SL (an empty or missing one clears it); checked as at submit against the entry and LP. */
export const leverSetStopRequest = z
  .object({ id: recordIdField, take_profit: optionalTextField(40), stop_loss: optionalTextField(40) })
  .check(
    z.superRefine((v, ctx) => {
      for (const key of ['take_profit', 'stop_loss'] as const) {
        const value = v[key];
        if (value && !decimalString.safeParse(value).success) {
          ctx.addIssue({ code: 'custom', message: 'leverStopPriceInvalid', path: [key] });
        }
      }
    }),
  );

/** lever/add_margin: more margin for an isolated holding position, from the contract account (applies once). */
export const leverAddMarginRequest = z.object({
  id: recordIdField,
  amount: z.pipe(
    z
      .string({ error: 'leverMarginRequired' })
      .check(z.trim(), z.minLength(1, { error: 'leverMarginRequired' }), z.maxLength(40, { error: 'invalidInput' })),
    decimalString.check(z.refine((v) => !/^0+(\.0+)?$/.test(v), { error: 'leverMarginInvalid' })),
  ),
  request_id: tradeRequestIdField,
});

/** The private `positions` topic: a snapshot of the open positions and orders (both books), then each change. */
export const POSITIONS_TOPIC = 'positions' as const;
/** The user event kind recorded with every change of a position (it feeds the topic). */
export const LEVER_POSITION_EVENT = 'lever_position' as const;
export const positionsTopicMessage = z.union([
  z.object({ kind: z.literal('snapshot'), positions: z.array(leverPosition) }),
  z.object({ kind: z.literal('position'), position: leverPosition }),
]);
export type PositionsTopicMessage = z.infer<typeof positionsTopicMessage>;

export const leverCalls = {
  'lever/deal': call('POST', true, leverDealRequest, leverDealResponse),
  'lever/submit': call('POST', true, submitLeverRequest, leverPosition),
  'lever/my_trade': call('POST', true, leverMyTradeRequest, leverMyTradeResponse),
  'lever/info': call('GET', true, leverIdRequest, leverPosition),
  'lever/close': call('POST', true, leverCloseRequest, leverPosition),
  'lever/close_all': call('POST', true, leverCloseAllRequest, leverCloseAllResponse),
  'lever/reverse': call('POST', true, leverReverseRequest, leverPosition),
  'lever/cancel': call('POST', true, leverIdRequest, leverPosition),
  'lever/setstop': call('POST', true, leverSetStopRequest, leverPosition),
  'lever/add_margin': call('POST', true, leverAddMarginRequest, leverPosition),
  'lever/simulator': call('GET', true, none, simulatorBalanceResponse),
  'lever/simulator/reset': call('POST', true, none, simulatorBalanceResponse),
} as const;
