import { REFERRAL_RATIO_MAX, REFERRAL_RATIO_RE } from '../referral';

/**
 * Referral rebates (RULES "Referral and partners"): the share of a trading fee a referrer earns and, for a partner,
 * the part passed on to the invitee. Ratios are basis points (bigint, 1 = 0.01%, 10000 = 100%): the wire's fractions
 * with at most 4 decimals convert exactly. Fees are integer minor units; every part is rounded down, so the total
 * never exceeds ratio × fee and the parts add up to the total.
 */

/** Basis points in one whole. */
export const RATIO_ONE = 10_000n;

/** A fraction as text ('0.2', '0.0125') in basis points; null when it is not such text. Range: see `ratioInRange`. */
export function parseRatio(text: string): bigint | null {
  const t = text.trim();
  if (!REFERRAL_RATIO_RE.test(t)) return null;
  const [whole = '0', frac = ''] = t.split('.');
  return BigInt(whole) * RATIO_ONE + BigInt(frac.padEnd(4, '0'));
}

/** Basis points as the wire's fraction with exactly 4 decimals: 2000n → '0.2000'. */
export function formatRatio(bp: bigint): string {
  if (bp < 0n) throw new RangeError(`negative ratio: ${bp}`);
  return `${bp / RATIO_ONE}.${String(bp % RATIO_ONE).padStart(4, '0')}`;
}

/** A ratio as a percentage without trailing zeros, for display: '0.2000' → '20', '0.0125' → '1.25'. */
export function ratioPercent(ratio: string | bigint): string {
  const bp = typeof ratio === 'bigint' ? ratio : parseRatio(ratio);
  if (bp === null || bp < 0n) throw new RangeError(`not a ratio: ${String(ratio)}`);
  const whole = bp / 100n;
  const cents = bp % 100n;
  if (cents === 0n) return String(whole);
  return `${whole}.${String(cents).padStart(2, '0').replace(/0$/, '')}`;
}

/** The highest share or partner ratio, in basis points. */
export const RATIO_MAX_BP = parseRatio(REFERRAL_RATIO_MAX) ?? 0n;

/** A share or partner ratio an operator may set: 0 to REFERRAL_RATIO_MAX. */
export const ratioInRange = (bp: bigint): boolean => bp >= 0n && bp <= RATIO_MAX_BP;

/** A partner's bonus after its ratio changes: never above the ratio (lowering the ratio lowers the bonus). */
export const clampBonus = (ratio: bigint, bonus: bigint): bigint => (bonus > ratio ? ratio : bonus);

/** The parts of one fee: `total` = referrer + invitee. */
export interface RebateSplit {
  total: bigint;
  referrer: bigint;
  invitee: bigint;
}

/**
 * The rebate of a fee `fee` (minor units, ≥ 0) at `ratio` with `bonus` passed to the invitee (basis points,
 * 0 ≤ bonus ≤ ratio ≤ 100%): total = ⌊fee × ratio⌋, invitee = ⌊fee × bonus⌋, referrer = total − invitee.
 */
export function rebateSplit(fee: bigint, ratio: bigint, bonus = 0n): RebateSplit {
  if (fee < 0n) throw new RangeError(`negative fee: ${fee}`);
  if (ratio < 0n || ratio > RATIO_ONE) throw new RangeError(`ratio out of range: ${ratio}`);
  if (bonus < 0n || bonus > ratio) throw new RangeError(`bonus out of range: ${bonus} (ratio ${ratio})`);
  const total = (fee * ratio) / RATIO_ONE;
  const invitee = (fee * bonus) / RATIO_ONE;
  return { total, referrer: total - invitee, invitee };
}
