import { C2C_FIAT_SCALE, C2C_PAY_WINDOW_MS, type C2cStatus } from '../c2c';
import { fromUnits, pow10, roundUnits, toUnits } from './spot';

/**
 * C2C rules (RULES.md "C2C", SPEC 3 "C2C order", SPEC 4 "C2C order status", SPEC 9 the 30-minute window) as pure
 * functions, shared by the server (which decides), the client's buy page (which shows exactly what the server will
 * charge) and the client's order machine (which offers only the actions the server will accept).
 *
 * Units: a coin quantity is bigint units of 10^-coinScale (the ledger's scale of the coin), a price bigint units of
 * 10^-C2C_PRICE_SCALE fiat per coin, a fiat amount bigint cents (10^-C2C_FIAT_SCALE). No float sees a value.
 */

/** Decimals a price may have (fiat per coin): enough for cheap coins, small enough that units stay below 2^53. */
export const C2C_PRICE_SCALE = 6;
/** Largest price: 10^9 fiat per coin, as price units. */
export const C2C_MAX_PRICE_UNITS = 10n ** 15n;
/** Largest order limit: 10^11 fiat, as cents. */
export const C2C_MAX_FIAT_CENTS = 10n ** 13n;

/** A price as typed ('65000.5') in price units, or null when it is not plain decimal text or has too many decimals. */
export function priceUnits(text: string): bigint | null {
  return toUnits(text.trim(), C2C_PRICE_SCALE);
}

/** Price units as decimal text with every decimal of the price scale, trailing zeros cut down to two ('65000.50'). */
export function formatPrice(units: bigint): string {
  const full = fromUnits(units, C2C_PRICE_SCALE);
  return full.replace(/0{1,4}$/, '');
}

/** A fiat amount as typed ('150', '150.5') in cents, or null when it is not plain decimal text or finer than a cent. */
export function fiatCents(text: string): bigint | null {
  return toUnits(text.trim(), C2C_FIAT_SCALE);
}

/** Cents as decimal text with two decimals ('150.50'). */
export function formatFiat(cents: bigint): string {
  return fromUnits(cents, C2C_FIAT_SCALE);
}

function checkNonNegative(name: string, units: bigint): void {
  if (units < 0n) throw new RangeError(`${name} must not be negative`);
}

/**
 * SPEC 3 "amount": the fiat the buyer pays for `quantity` coins at `price`, quantity × price rounded UP to the cent
 * (the buyer pays: RULES "Exact amounts"). Never more than one cent above the exact product.
 */
export function c2cFiatAmount(quantity: bigint, coinScale: number, price: bigint): bigint {
  checkNonNegative('quantity', quantity);
  checkNonNegative('price', price);
  return roundUnits(quantity * price, coinScale + C2C_PRICE_SCALE, C2C_FIAT_SCALE, 'up');
}

/**
 * The largest quantity (coin units) whose fiat amount is at most `cents`: what a buyer who types a fiat amount gets.
 * Its own fiat amount (c2cFiatAmount) is then at most `cents`, and one coin unit more would exceed it.
 */
export function c2cQuantityForFiat(cents: bigint, coinScale: number, price: bigint): bigint {
  checkNonNegative('fiat amount', cents);
  if (price <= 0n) throw new RangeError('price must be positive');
  // fiat(q) = ceil(q × p / 10^k) <= cents  <=>  q × p <= cents × 10^k, with k = coinScale + priceScale − fiatScale.
  const k = coinScale + C2C_PRICE_SCALE - C2C_FIAT_SCALE;
  const budget = k >= 0 ? cents * pow10(k) : cents / pow10(-k);
  return budget / price;
}

export type C2cLimitProblem = 'c2cBelowMin' | 'c2cAboveMax';

/** SPEC 3 "limit": an order's fiat amount must lie within the ad's minimum and maximum (both inclusive). */
export function c2cLimitProblem(amount: bigint, min: bigint, max: bigint): C2cLimitProblem | null {
  if (amount < min) return 'c2cBelowMin';
  if (amount > max) return 'c2cAboveMax';
  return null;
}

/** SPEC 9: the end of the payment window on server time; paying is possible strictly before it. */
export function c2cPayUntil(createdAt: number): number {
  return createdAt + C2C_PAY_WINDOW_MS;
}

/** What is left of an ad: its amount less the quantities of its orders in status 1 to 4 (never below zero). */
export function c2cAvailable(amount: bigint, taken: bigint): bigint {
  return amount > taken ? amount - taken : 0n;
}

/** Everything that can happen to an order. `resolve_*`: an operator decides an appeal. */
export const C2C_ACTIONS = [
  'cancel',
  'pay',
  'release',
  'appeal',
  'expire',
  'resolve_release',
  'resolve_cancel',
] as const;
export type C2cAction = (typeof C2C_ACTIONS)[number];
/** Who acts: the order's buyer, its merchant, an operator, or the server's expiry job. */
export type C2cActor = 'buyer' | 'merchant' | 'operator' | 'system';
export type C2cCancelReason = 'buyer' | 'expired' | 'appeal';

export interface C2cTransition {
  from: C2cStatus;
  action: C2cAction;
  actor: C2cActor;
  to: C2cStatus;
  /** Set for transitions to 5 (cancelled). */
  cancelReason: C2cCancelReason | null;
  /** `open`: only strictly before pay_until; `closed`: only at or after it; null: any time. */
  window: 'open' | 'closed' | null;
}

const t = (
  from: C2cStatus,
  action: C2cAction,
  actor: C2cActor,
  to: C2cStatus,
  extra: Partial<Pick<C2cTransition, 'cancelReason' | 'window'>> = {},
): C2cTransition => ({
  from,
  action,
  actor,
  to,
  cancelReason: extra.cancelReason ?? null,
  window: extra.window ?? null,
});

/**
 * The whole life of an order (RULES "C2C"): the only transitions there are. 1 paying, 2 paid, 3 completed, 4 appeal,
 * 5 cancelled; 3 and 5 are final. The merchant releases while paid; in an appeal only an operator's decision moves
 * the coins (release to the buyer, or cancel back to the merchant).
 */
export const C2C_TRANSITIONS: readonly C2cTransition[] = Object.freeze([
  t(1, 'cancel', 'buyer', 5, { cancelReason: 'buyer' }),
  t(1, 'pay', 'buyer', 2, { window: 'open' }),
  t(1, 'expire', 'system', 5, { cancelReason: 'expired', window: 'closed' }),
  t(2, 'release', 'merchant', 3),
  t(2, 'appeal', 'buyer', 4),
  t(2, 'appeal', 'merchant', 4),
  t(4, 'resolve_release', 'operator', 3),
  t(4, 'resolve_cancel', 'operator', 5, { cancelReason: 'appeal' }),
]);

/** The parts of an order the transitions depend on. */
export interface C2cOrderState {
  status: C2cStatus;
  pay_until: number;
  cancel_reason?: C2cCancelReason | null;
}

/**
 * Why an action is refused: `c2cWrongStatus` (not in this status, or not by this side), `c2cPayWindowClosed` (a
 * payment at or after pay_until, or after the order expired), `notDue` (the expiry before pay_until).
 */
export type C2cRefusal = 'c2cWrongStatus' | 'c2cPayWindowClosed' | 'notDue';

export type C2cStep =
  | { ok: true; to: C2cStatus; cancelReason: C2cCancelReason | null }
  | { ok: false; problem: C2cRefusal };

/** Whether `actor` may do `action` to `order` at server time `at`, and the status it leads to. */
export function c2cStep(order: C2cOrderState, action: C2cAction, actor: C2cActor, at: number): C2cStep {
  const rule = C2C_TRANSITIONS.find((r) => r.from === order.status && r.action === action && r.actor === actor);
  if (!rule) {
    // A payment after the window closed says so, rather than naming the status the expiry left behind.
    if (action === 'pay' && actor === 'buyer' && order.status === 5 && order.cancel_reason === 'expired') {
      return { ok: false, problem: 'c2cPayWindowClosed' };
    }
    return { ok: false, problem: 'c2cWrongStatus' };
  }
  if (rule.window === 'open' && at >= order.pay_until) return { ok: false, problem: 'c2cPayWindowClosed' };
  if (rule.window === 'closed' && at < order.pay_until) return { ok: false, problem: 'notDue' };
  return { ok: true, to: rule.to, cancelReason: rule.cancelReason };
}
