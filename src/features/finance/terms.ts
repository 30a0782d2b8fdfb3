import type { FinanceOrder, FinanceProduct } from '../../../protocol/finance';
import {
  DAY_MS,
  dailyInterest,
  earlyRedemptionPenalty,
  type FinanceTerms,
  interestStartDay,
  maturityAt,
  type PenaltyRule,
  promisedYield,
} from '../../../protocol/rules/finance';
import { toUnits } from '../../../protocol/rules/spot';

/**
 * The buy and orders pages' figures, from the published rule code (protocol/rules/finance.ts) on integer minor units,
 * so what the page shows before a purchase or a redemption is what the server computes. Nothing here uses a float.
 */

/** Units of a wire amount of a currency with `scale` decimals (0 for anything the server would not send). */
export const unitsOf = (text: string, scale: number): bigint => toUnits(text, scale) ?? 0n;

export const termsOf = (p: Pick<FinanceProduct, 'daily_rate' | 'cycle_days' | 'penalty'>): FinanceTerms => ({
  dailyRate: p.daily_rate,
  cycleDays: p.cycle_days,
  penalty: p.penalty as PenaltyRule,
});

export const orderTermsOf = (o: FinanceOrder): FinanceTerms => ({
  dailyRate: o.daily_rate,
  cycleDays: o.cycle_days,
  penalty: o.penalty_rule as PenaltyRule,
});

/** What a principal earns, exactly: one day's interest (rounded down) and the whole cycle's. */
export interface YieldPreview {
  daily: bigint;
  total: bigint;
}

export function yieldPreview(principal: bigint, terms: FinanceTerms): YieldPreview {
  return { daily: dailyInterest(principal, terms.dailyRate), total: promisedYield(principal, terms) };
}

/** When interest on a purchase made at `at` (server time) starts, and when its cycle completes (both 00:00 UTC). */
export function cycleDates(at: number, cycleDays: number): { start: number; completion: number } {
  const startDay = interestStartDay(at);
  return { start: startDay * DAY_MS, completion: maturityAt(startDay, cycleDays) };
}

/** The largest amount one purchase can have now: the maximum, or less where the reserve covers less. */
export function maxAmountUnits(p: FinanceProduct): bigint {
  const max = unitsOf(p.max_amount, p.scale);
  const capacity = unitsOf(p.capacity, p.scale);
  return capacity < max ? capacity : max;
}

/** `errors` keys a typed amount can fail with before it is sent; the server checks the same in this order. */
export type AmountProblem =
  | 'financeAmountRequired'
  | 'amountInvalid'
  | 'amountTooPrecise'
  | 'financeAmountBelowMin'
  | 'financeAmountAboveMax'
  | 'insufficientBalance';

/**
 * Why `amount` (the exact wire text) cannot be bought now, or its units. The currency's decimals, then the
 * minimum, the largest amount on offer now and the trust balance (`available`, null while unknown).
 */
export function checkAmount(
  amount: string,
  product: FinanceProduct,
  available: string | null,
): { ok: true; units: bigint } | { ok: false; problem: AmountProblem } {
  const text = amount.trim();
  if (text === '') return { ok: false, problem: 'financeAmountRequired' };
  if (!/^\d+(\.\d+)?$/.test(text)) return { ok: false, problem: 'amountInvalid' };
  const units = toUnits(text, product.scale);
  if (units === null) return { ok: false, problem: 'amountTooPrecise' };
  if (units === 0n || units < unitsOf(product.min_amount, product.scale))
    return { ok: false, problem: 'financeAmountBelowMin' };
  if (units > maxAmountUnits(product)) return { ok: false, problem: 'financeAmountAboveMax' };
  if (available !== null && units > unitsOf(available, product.scale))
    return { ok: false, problem: 'insufficientBalance' };
  return { ok: true, units };
}

/** What redeeming a running order now costs, and what of its principal comes back. */
export interface Redemption {
  penalty: bigint;
  returned: bigint;
  /** The penalty for one remaining day, to state the rule with its number. */
  perDay: bigint;
}

/**
 * The order's own `penalty` (the server's figure for now) when it has one; else the published rule for the days
 * left. Either way never more than the principal, so what comes back is never negative.
 */
export function redemptionOf(order: FinanceOrder): Redemption {
  const principal = unitsOf(order.amount, order.scale);
  const terms = orderTermsOf(order);
  const stated = order.penalty === null ? null : toUnits(order.penalty, order.scale);
  const penalty = stated ?? earlyRedemptionPenalty(principal, terms, order.days_left);
  return {
    penalty,
    returned: principal > penalty ? principal - penalty : 0n,
    perDay: earlyRedemptionPenalty(principal, terms, 1),
  };
}
