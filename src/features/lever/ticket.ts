import type { LeverOrderDraft } from '../../../machines/lever/order.machine';
import type {
  LeverAccount,
  LeverInstrument,
  LeverOrderType,
  LeverPosition,
  LeverSide,
  MarginMode,
} from '../../../protocol/lever';
import {
  initialMargin,
  isolatedLiquidationPrice,
  type LeverTerms,
  pnlUnits,
  stopProblem,
  tradeFee,
} from '../../../protocol/rules/lever';
import { fromUnits, toUnits } from '../../../protocol/rules/spot';

/** What the ticket holds before it is sent: prices as wire text (already read in the user's number format). */
export interface LeverTicket {
  side: LeverSide;
  type: LeverOrderType;
  marginMode: MarginMode;
  leverage: number;
  lots: string;
  price: string;
  takeProfitOn: boolean;
  takeProfit: string;
  stopLossOn: boolean;
  stopLoss: string;
}

export type TicketField = 'lots' | 'price' | 'take_profit' | 'stop_loss';

/** A problem found before sending: an `errors` key and the field it is about. */
export interface TicketProblem {
  key: string;
  field: TicketField;
}

/** The rule terms of a new position on `instrument` (the quote scale is lever/deal's `scale`). */
export const termsOf = (instrument: LeverInstrument, quoteScale: number): LeverTerms => ({
  contractSize: instrument.contract_size,
  mmr: instrument.mmr,
  feeRate: instrument.fee_rate,
  priceScale: instrument.price_scale,
  quoteScale,
});

/** The rule terms a position was opened under (its row carries them). */
export const positionTerms = (
  position: Pick<LeverPosition, 'contract_size' | 'mmr' | 'fee_rate'>,
  priceScale: number,
  quoteScale: number,
): LeverTerms => ({
  contractSize: position.contract_size,
  mmr: position.mmr,
  feeRate: position.fee_rate,
  priceScale,
  quoteScale,
});

/** SPEC 5: lots are required, a positive whole number (at least 1). */
const LOTS_RE = /^[1-9]\d{0,8}$/;

/** The lots as a number of lots, or null when they are not a valid count. */
export const lotsOf = (text: string): bigint | null => (LOTS_RE.test(text) ? BigInt(text) : null);

/** A positive price on the instrument's tick, in price units; null otherwise. */
function priceUnits(text: string, scale: number): bigint | null {
  const units = toUnits(text, scale);
  return units !== null && units > 0n ? units : null;
}

/** What confirming would hold: margin and open fee at the limit or last price, and an isolated position's LP. */
export interface TicketEstimate {
  /** The price the estimate is at. */
  price: string;
  at: 'limit' | 'last';
  margin: string;
  fee: string;
  total: string;
  /** Isolated only; null for cross (it moves with the account) or when none exists. */
  liquidationPrice: string | null;
}

/**
 * The ticket's estimate under the published rules (protocol/rules/lever.ts): IM = Q × price / leverage and the fee
 * Q × price × fee rate, both rounded up as the server holds them. Null until lots and a price are readable.
 */
export function ticketEstimate(
  ticket: LeverTicket,
  instrument: LeverInstrument,
  quoteScale: number,
  last: string | null,
): TicketEstimate | null {
  const terms = termsOf(instrument, quoteScale);
  const lots = lotsOf(ticket.lots);
  const at = ticket.type === 'limit' ? 'limit' : 'last';
  const priceText = at === 'limit' ? ticket.price : last;
  const price = priceText === null ? null : priceUnits(priceText, terms.priceScale);
  if (lots === null || price === null || !instrument.leverages.includes(ticket.leverage)) return null;
  return openEstimate(
    { side: ticket.side, marginMode: ticket.marginMode, leverage: ticket.leverage, lots },
    terms,
    price,
    at,
  );
}

/** What an open of `lots` at `price` holds by the rules: margin and fee rounded up as the server holds them, the LP. */
function openEstimate(
  order: { side: LeverSide; marginMode: MarginMode; leverage: number; lots: bigint },
  terms: LeverTerms,
  price: bigint,
  at: TicketEstimate['at'],
): TicketEstimate {
  const { side, lots } = order;
  const margin = initialMargin(lots, price, order.leverage, terms);
  const fee = tradeFee(lots, price, terms);
  const lp =
    order.marginMode === 'isolated' ? isolatedLiquidationPrice({ side, lots, entry: price, margin, terms }) : null;
  return {
    price: fromUnits(price, terms.priceScale),
    at,
    margin: fromUnits(margin, terms.quoteScale),
    fee: fromUnits(fee, terms.quoteScale),
    total: fromUnits(margin + fee, terms.quoteScale),
    liquidationPrice: lp === null ? null : fromUnits(lp, terms.priceScale),
  };
}

/** What closing `lots` of a position at `last` would book by the rules: its P&L and its close fee. */
export interface CloseEstimate {
  pnl: string;
  fee: string;
}

export function closeEstimate(
  position: LeverPosition,
  lots: bigint,
  last: string | null,
  priceScale: number,
  quoteScale: number,
): CloseEstimate | null {
  const terms = positionTerms(position, priceScale, quoteScale);
  const exit = last === null ? null : toUnits(last, priceScale);
  const entry = position.entry_price === null ? null : toUnits(position.entry_price, priceScale);
  if (exit === null || entry === null) return null;
  return {
    pnl: fromUnits(pnlUnits({ side: position.direction, lots, entry, terms }, exit), quoteScale),
    fee: fromUnits(tradeFee(lots, exit, terms), quoteScale),
  };
}

/**
 * The open half of a reverse (RULES "Reverse") at `last`: the same lots, leverage and margin mode on the other side,
 * under the position's terms (the server opens it under them, so the same lots are the same quantity).
 */
export function reverseEstimate(
  position: LeverPosition,
  priceScale: number,
  quoteScale: number,
  last: string | null,
): TicketEstimate | null {
  const price = last === null ? null : priceUnits(last, priceScale);
  if (price === null) return null;
  const order = {
    side: oppositeSide(position.direction),
    marginMode: position.margin_mode,
    leverage: position.leverage,
    lots: BigInt(position.lots),
  };
  return openEstimate(order, positionTerms(position, priceScale, quoteScale), price, 'last');
}

export const oppositeSide = (side: LeverSide): LeverSide => (side === 'long' ? 'short' : 'long');

/**
 * SPEC 5 "Lever" and RULES "Lever", in the order the form shows them, as far as the client can tell: lots required
 * and whole (at least 1); a limit price; a switched-on take-profit or stop-loss needs its price (leverStopRequired),
 * on the tick, on its side of the expected entry and (stop-loss) not beyond the liquidation price; margin and fee
 * within the available balance. The server checks all of it again (and the market reserve, and verification).
 */
export function ticketProblem(
  ticket: LeverTicket,
  instrument: LeverInstrument,
  quoteScale: number,
  last: string | null,
  available: string | null,
): TicketProblem | null {
  const scale = instrument.price_scale;
  if (ticket.lots === '') return { key: 'leverLotsRequired', field: 'lots' };
  if (lotsOf(ticket.lots) === null) return { key: 'leverLotsInvalid', field: 'lots' };
  if (ticket.type === 'limit') {
    if (ticket.price === '') return { key: 'leverPriceRequired', field: 'price' };
    if (priceUnits(ticket.price, scale) === null) return { key: 'leverPriceInvalid', field: 'price' };
  }
  if (ticket.takeProfitOn && ticket.takeProfit === '') return { key: 'leverStopRequired', field: 'take_profit' };
  if (ticket.stopLossOn && ticket.stopLoss === '') return { key: 'leverStopRequired', field: 'stop_loss' };
  const tp = ticket.takeProfitOn ? priceUnits(ticket.takeProfit, scale) : null;
  const sl = ticket.stopLossOn ? priceUnits(ticket.stopLoss, scale) : null;
  if (ticket.takeProfitOn && tp === null) return { key: 'leverStopPriceInvalid', field: 'take_profit' };
  if (ticket.stopLossOn && sl === null) return { key: 'leverStopPriceInvalid', field: 'stop_loss' };
  const estimate = ticketEstimate(ticket, instrument, quoteScale, last);
  if (estimate && (tp !== null || sl !== null)) {
    const reference = toUnits(estimate.price, scale) ?? 0n;
    const lp = estimate.liquidationPrice === null ? null : toUnits(estimate.liquidationPrice, scale);
    const problem = stopProblem(ticket.side, reference, lp, tp, sl);
    if (problem) return { key: problem, field: problem === 'leverTakeProfitSide' ? 'take_profit' : 'stop_loss' };
  }
  const balance = available === null ? null : toUnits(available, quoteScale);
  const total = estimate ? toUnits(estimate.total, quoteScale) : null;
  if (balance !== null && total !== null && total > balance) return { key: 'insufficientBalance', field: 'lots' };
  return null;
}

/** The machine's draft: what lever/submit takes, without the request id (the machine owns it). */
export function draftOf(ticket: LeverTicket, symbol: string, account: LeverAccount): LeverOrderDraft {
  return {
    symbol,
    side: ticket.side,
    type: ticket.type,
    margin_mode: ticket.marginMode,
    lots: ticket.lots,
    leverage: String(ticket.leverage),
    account,
    ...(ticket.type === 'limit' ? { price: ticket.price } : {}),
    ...(ticket.takeProfitOn ? { take_profit: ticket.takeProfit } : {}),
    ...(ticket.stopLossOn ? { stop_loss: ticket.stopLoss } : {}),
  };
}

/**
 * An isolated position's liquidation price after adding `amount` of margin (RULES: a long's LP falls by
 * ΔM / (Q × (1 − MMR)), a short's rises), from the same rule the server and the worker use. Null when the amount
 * does not read, the position has no entry yet, or no LP exists (the margin covers everything).
 */
export function liquidationAfterTopUp(
  position: LeverPosition,
  priceScale: number,
  quoteScale: number,
  amount: string,
): string | null {
  const added = toUnits(amount, quoteScale);
  const entry = position.entry_price === null ? null : toUnits(position.entry_price, priceScale);
  const initial = position.initial_margin === null ? null : toUnits(position.initial_margin, quoteScale);
  const held = toUnits(position.additional_margin, quoteScale);
  if (added === null || added <= 0n || entry === null || initial === null || held === null) return null;
  const terms = positionTerms(position, priceScale, quoteScale);
  const lp = isolatedLiquidationPrice({
    side: position.direction,
    lots: BigInt(position.lots),
    entry,
    margin: initial + held + added,
    terms,
  });
  return lp === null ? null : fromUnits(lp, priceScale);
}
