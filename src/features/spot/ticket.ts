import type { SpotConfig } from '../../../core/api/spot';
import type { OrderDraft } from '../../../machines/spot/order.machine';
import {
  bandPrice,
  buyCost,
  fromUnits,
  marketBuyHold,
  orderValueAtLeastMin,
  type PairSteps,
  qtyForAmount,
  roundUnits,
  type SpotTerms,
  sellProceeds,
  toUnits,
} from '../../../protocol/rules/spot';
import type { BuyMode, OrderSide, OrderType, SpotPair } from '../../../protocol/spot';

/**
 * The buy/sell ticket's arithmetic, on the published rule functions (protocol/rules/spot.ts) so that the estimate
 * is what the server will compute: the same rounding, the same band, the same minimum. Inputs are exact wire
 * decimals (the fields' locale text already read by lib/amount-input); nothing here is a float.
 */

export interface PairTerms {
  pair: SpotPair;
  steps: PairSteps;
  terms: SpotTerms;
}

export function pairTerms(config: SpotConfig, symbol: string): PairTerms | null {
  const pair = config.pairs.find((p) => p.symbol === symbol);
  if (!pair) return null;
  return {
    pair,
    steps: { priceScale: pair.price_scale, qtyScale: pair.qty_scale },
    terms: {
      feeRate: config.fee_rate,
      minValue: config.min_value,
      priceBand: config.price_band,
      quoteScale: config.quote_scale,
    },
  };
}

export interface Ticket {
  side: OrderSide;
  type: OrderType;
  /** Only a market buy may be given as a USDT amount. */
  mode: BuyMode;
  /** Wire decimals ('' when empty). */
  qty: string;
  amount: string;
  price: string;
}

/** Whether this ticket is a market buy by USDT amount. */
export const byAmount = (t: Pick<Ticket, 'side' | 'type' | 'mode'>): boolean =>
  t.side === 'buy' && t.type === 'market' && t.mode === 'amount';

/** A balance row's available amount (at the ledger's scale) in units of `scale`, rounded down (never more). */
export function availableUnits(available: string | null | undefined, ledgerScale: number, scale: number): bigint {
  if (!available) return 0n;
  const units = toUnits(available, ledgerScale);
  return units === null ? 0n : roundUnits(units, ledgerScale, scale, 'down');
}

/** A price text at the pair's price step (a quote off the step is cut down to it), or null. */
function priceUnits(text: string | null | undefined, steps: PairSteps): bigint | null {
  if (!text) return null;
  const exact = toUnits(text, steps.priceScale);
  if (exact !== null) return exact;
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) return null;
  return BigInt((match[1] ?? '0') + (match[2] ?? '').padEnd(steps.priceScale, '0').slice(0, steps.priceScale));
}

/** The price the ticket is estimated at: its limit, or for a market order the last price. */
export function ticketPrice(ticket: Ticket, last: string | null, steps: PairSteps): bigint | null {
  return priceUnits(ticket.type === 'limit' ? ticket.price : last, steps);
}

export interface Estimate {
  /** The quantity it buys or sells (for a buy by amount, what the amount pays for at the price). */
  qty: string;
  value: string;
  fee: string;
  /** A buy pays value + fee; a sell receives value − fee. */
  total: string;
}

/** The estimated value, fee and total at the ticket's price; null while something needed is missing. */
export function estimate(ticket: Ticket, last: string | null, p: PairTerms): Estimate | null {
  const price = ticketPrice(ticket, last, p.steps);
  if (price === null || price === 0n) return null;
  let qty: bigint | null;
  if (byAmount(ticket)) {
    const amount = toUnits(ticket.amount, p.terms.quoteScale);
    qty = amount === null ? null : qtyForAmount(amount, price, p.steps, p.terms);
  } else {
    qty = toUnits(ticket.qty, p.steps.qtyScale);
  }
  if (qty === null || qty === 0n) return null;
  const amounts =
    ticket.side === 'buy' ? buyCost(qty, price, p.steps, p.terms) : sellProceeds(qty, price, p.steps, p.terms);
  const q = p.terms.quoteScale;
  return {
    qty: fromUnits(qty, p.steps.qtyScale),
    value: fromUnits(amounts.value, q),
    fee: fromUnits(amounts.fee, q),
    total: fromUnits(amounts.total, q),
  };
}

/** What the ticket's percent buttons offer. */
export const PERCENTS = [25, 50, 75, 100] as const;

/**
 * The field value for "pct % of available": a sell takes that share of the coin; a buy by amount that share of the
 * USDT; a buy by quantity the most whose hold fits in that share (held at the limit, or for a market buy at the
 * band price, as the server holds it). Rounded down to the step; '' when nothing fits.
 */
export function percentOf(
  pct: number,
  ticket: Ticket,
  available: { units: bigint; scale: number },
  last: string | null,
  p: PairTerms,
): string {
  const share = (available.units * BigInt(pct)) / 100n;
  if (ticket.side === 'sell') {
    const qty = roundUnits(share, available.scale, p.steps.qtyScale, 'down');
    return qty > 0n ? fromUnits(qty, p.steps.qtyScale) : '';
  }
  const usdt = roundUnits(share, available.scale, p.terms.quoteScale, 'down');
  if (byAmount(ticket)) return usdt > 0n ? fromUnits(usdt, p.terms.quoteScale) : '';
  const price = ticketPrice(ticket, last, p.steps);
  if (price === null || price === 0n) return '';
  const holdPrice = ticket.type === 'market' ? bandPrice(price, p.steps, p.terms) : price;
  const qty = qtyForAmount(usdt, holdPrice, p.steps, p.terms);
  return qty > 0n ? fromUnits(qty, p.steps.qtyScale) : '';
}

/** What is held from the user when the order is accepted: USDT for a buy (quote units), the coin for a sell. */
export function holdOf(ticket: Ticket, last: string | null, p: PairTerms): bigint | null {
  if (ticket.side === 'sell') return toUnits(ticket.qty, p.steps.qtyScale);
  if (byAmount(ticket)) return toUnits(ticket.amount, p.terms.quoteScale);
  const qty = toUnits(ticket.qty, p.steps.qtyScale);
  const price = ticketPrice(ticket, last, p.steps);
  if (qty === null || price === null) return null;
  return ticket.type === 'market'
    ? marketBuyHold(qty, price, p.steps, p.terms)
    : buyCost(qty, price, p.steps, p.terms).total;
}

/**
 * The first thing wrong with the ticket, as a key of the `errors` namespace (SPEC 5 "Spot", mirrored from the
 * server so the user learns it before sending), and the field it is about; null when it may be sent.
 * `available` is in the units of the side's currency (quote units for a buy, qty units for a sell).
 */
export function ticketProblem(
  ticket: Ticket,
  last: string | null,
  available: bigint,
  p: PairTerms,
): { key: string; field: 'qty' | 'amount' | 'price' } | null {
  if (byAmount(ticket)) {
    const amount = ticket.amount ? toUnits(ticket.amount, p.terms.quoteScale) : null;
    if (!ticket.amount || amount === null || amount === 0n) return { key: 'invalidPurchase', field: 'amount' };
  } else if (!ticket.qty || toUnits(ticket.qty, 40) === 0n) {
    return { key: ticket.side === 'sell' ? 'soldQuantityRequired' : 'buyQuantityRequired', field: 'qty' };
  } else if (toUnits(ticket.qty, p.steps.qtyScale) === null) {
    return { key: 'spotQtyStep', field: 'qty' };
  }
  if (ticket.type === 'limit') {
    if (!ticket.price) return { key: 'limitPriceRequired', field: 'price' };
    const price = toUnits(ticket.price, p.steps.priceScale);
    if (price === null || price === 0n) return { key: 'spotPriceStep', field: 'price' };
  }
  const field = byAmount(ticket) ? 'amount' : 'qty';
  if (available === 0n) return { key: 'availableZero', field };
  const price = ticketPrice(ticket, last, p.steps);
  const qty = byAmount(ticket) ? (estimateQty(ticket, last, p) ?? 0n) : toUnits(ticket.qty, p.steps.qtyScale);
  if (price !== null && qty !== null && !orderValueAtLeastMin(qty, price, p.steps, p.terms)) {
    return { key: 'spotMinValue', field };
  }
  const hold = holdOf(ticket, last, p);
  if (hold !== null && hold > available) {
    return { key: ticket.side === 'sell' ? 'insufficientSellable' : 'insufficientBalance', field };
  }
  return null;
}

function estimateQty(ticket: Ticket, last: string | null, p: PairTerms): bigint | null {
  const e = estimate(ticket, last, p);
  return e ? toUnits(e.qty, p.steps.qtyScale) : null;
}

/** The request the machine sends (without its id): only the fields this kind of order takes. */
export function draftOf(ticket: Ticket, symbol: string): OrderDraft {
  const amountMode = byAmount(ticket);
  return {
    symbol,
    side: ticket.side,
    type: ticket.type,
    mode: amountMode ? 'amount' : 'quantity',
    ...(amountMode ? { amount: ticket.amount } : { qty: ticket.qty }),
    ...(ticket.type === 'limit' ? { price: ticket.price } : {}),
  };
}
