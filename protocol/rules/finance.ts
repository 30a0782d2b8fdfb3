import { exactDecimal, fromUnits, pow10, roundUnits } from './spot';

/**
 * Finance products (RULES.md "Finance", SPEC 9): a fixed daily rate on a principal for a cycle of whole days, paid
 * from a funded reserve, with a penalty for redeeming early. Amounts are integer minor units of the product's
 * currency (bigint); rates are exact decimal text. The server, the buy and orders pages and anyone re-checking an
 * order compute the same figures with these functions.
 */

export const DAY_MS = 86_400_000;

/**
 * How an early redemption is charged. `ratio`: settlement ratio × remaining days × principal (SPEC 9, default 0.4%).
 * `interest_multiple`: a multiple of one day's interest per remaining day (the other SPEC 9 reading, 1.5).
 */
export type PenaltyRule = { kind: 'ratio'; value: string } | { kind: 'interest_multiple'; value: string };

export const DEFAULT_PENALTY: PenaltyRule = Object.freeze({ kind: 'ratio', value: '0.004' }) as PenaltyRule;

/** What an order keeps from its product when bought: later product changes never touch it. */
export interface FinanceTerms {
  /** Fixed daily rate as a fraction, e.g. '0.0002'. */
  dailyRate: string;
  cycleDays: number;
  penalty: PenaltyRule;
}

/** The UTC day number of a time (days since 1970-01-01, 00:00 UTC). */
export const utcDay = (ms: number): number => Math.floor(ms / DAY_MS);

/** Interest starts at 00:00 UTC after the purchase: the first day of interest is the next UTC day. */
export const interestStartDay = (boughtAt: number): number => utcDay(boughtAt) + 1;

/** When day `k` (1..cycle) of interest ends and is due: 00:00 UTC after it. */
export const interestDueAt = (startDay: number, k: number): number => (startDay + k) * DAY_MS;

/** When the cycle ends: the last day's interest and the principal are due. */
export const maturityAt = (startDay: number, cycleDays: number): number => interestDueAt(startDay, cycleDays);

/** How many days of interest are due at `at` (0 before the first day ends, at most the cycle). */
export function daysDue(startDay: number, cycleDays: number, at: number): number {
  const ended = utcDay(at) - startDay;
  return Math.max(0, Math.min(cycleDays, ended));
}

/** One day's interest: principal × daily rate, rounded down (the user receives it). */
export function dailyInterest(principal: bigint, dailyRate: string): bigint {
  const rate = exactDecimal(dailyRate);
  return roundUnits(principal * rate.units, rate.scale, 0, 'down');
}

/** Everything an order will be paid over its cycle: what the reserve must cover before it is sold. */
export function promisedYield(principal: bigint, terms: Pick<FinanceTerms, 'dailyRate' | 'cycleDays'>): bigint {
  return dailyInterest(principal, terms.dailyRate) * BigInt(terms.cycleDays);
}

/**
 * The penalty of redeeming with `remainingDays` of the cycle left: rounded up (the user pays it) and never more
 * than the principal. Both SPEC 9 examples hold at the default: 10,000 for 15 days → 600; 1,000 for 3 days → 12.
 */
export function earlyRedemptionPenalty(principal: bigint, terms: FinanceTerms, remainingDays: number): bigint {
  if (remainingDays <= 0) return 0n;
  const days = BigInt(remainingDays);
  const factor = exactDecimal(terms.penalty.value);
  let penalty: bigint;
  if (terms.penalty.kind === 'ratio') {
    penalty = roundUnits(factor.units * days * principal, factor.scale, 0, 'up');
  } else {
    // A multiple of one exact day's interest (not the rounded payment), so the rule has one rounding.
    const rate = exactDecimal(terms.dailyRate);
    penalty = roundUnits(factor.units * rate.units * days * principal, factor.scale + rate.scale, 0, 'up');
  }
  return penalty > principal ? principal : penalty;
}

/** APR as shown: daily rate × 365, simple (no compounding claim), as exact decimal text. */
export function simpleApr(dailyRate: string): string {
  const rate = exactDecimal(dailyRate);
  return trimZeros(fromUnits(rate.units * 365n, rate.scale));
}

/**
 * The largest principal whose promised yield `free` reserve units still cover (0 when not even one unit fits):
 * promisedYield(p) = ⌊p × r⌋ × cycle ≤ free ⇔ ⌊p × r⌋ ≤ ⌊free / cycle⌋ =: d ⇔ p × r < d + 1.
 */
export function coveredPrincipal(free: bigint, terms: Pick<FinanceTerms, 'dailyRate' | 'cycleDays'>): bigint {
  if (free < 0n) return 0n;
  const rate = exactDecimal(terms.dailyRate);
  if (rate.units === 0n) throw new RangeError('a daily rate must be positive');
  const perDay = free / BigInt(terms.cycleDays);
  // p × units / 10^scale < d + 1  ⇔  p × units < (d + 1) × 10^scale  ⇔  p ≤ ((d + 1) × 10^scale − 1) / units.
  return ((perDay + 1n) * pow10(rate.scale) - 1n) / rate.units;
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}
