import { parseLocaleAmount } from '../../../core/locale-amount';
import { formatRatio, parseRatio, ratioPercent } from '../../../protocol/rules/referral';
import { formatNumber } from '../../lib/format';

/**
 * A partner's bonus is typed as a percentage in the user's number format ('2,5' in German is 2.5 %), one basis point
 * (0.01 %) being the finest step the wire's fractions hold; it goes on the wire as a fraction ('0.0250').
 */
export type BonusCheck =
  | { ok: true; bonus: string }
  | { ok: false; problem: 'required' | 'invalid' | 'precision' | 'range' };

/** Reads the typed percentage against the partner's ratio (0 to the ratio, both included). */
export function checkBonus(typed: string, lang: string, ratio: string): BonusCheck {
  if (typed.trim() === '') return { ok: false, problem: 'required' };
  const value = parseLocaleAmount(typed, lang);
  if (value === null) return { ok: false, problem: 'invalid' };
  if (value.startsWith('-')) return { ok: false, problem: 'range' };
  const parts = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!parts) return { ok: false, problem: 'invalid' };
  const whole = parts[1] ?? '0';
  const cents = parts[2] ?? '';
  if (cents.length > 2) return { ok: false, problem: 'precision' };
  // Whole percent beyond any ratio: out of range, not a number too long to read.
  if (whole.length > 3) return { ok: false, problem: 'range' };
  const bp = BigInt(whole) * 100n + BigInt(cents.padEnd(2, '0'));
  const max = parseRatio(ratio);
  if (max === null || bp > max) return { ok: false, problem: 'range' };
  return { ok: true, bonus: formatRatio(bp) };
}

/** A ratio as a percentage number in the user's format, without the sign: '0.0250' → '2,5' (de), '2.5' (en). */
export const percentText = (ratio: string, lang: string): string =>
  formatNumber(ratioPercent(ratio), lang, { min: 0, max: 2, grouping: false });

/** The part of the ratio the partner keeps once the bonus is passed on, as a wire fraction. */
export function keptRatio(ratio: string, bonus: string): string {
  const r = parseRatio(ratio) ?? 0n;
  const b = parseRatio(bonus) ?? 0n;
  return formatRatio(b > r ? 0n : r - b);
}
