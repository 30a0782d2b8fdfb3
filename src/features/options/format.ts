import { formatNumber, localeOf } from '../../lib/format';

/** Stakes, balances and payouts as money: two decimals cut (the one number rule, src/lib/figures.ts). */
export const formatAmount = (value: string, lang: string): string => formatNumber(value, lang, { min: 2, max: 2 });

/**
 * A price at the instrument's own tick, every decimal of its price scale (TRX five, BTC two), not SPEC 9's 2 to 4:
 * a contract is won or lost by one tick, so its entry and exit must show the digit that decided it.
 */
export const formatTickPrice = (value: string, lang: string, priceScale: number): string =>
  formatNumber(value, lang, { min: priceScale, max: priceScale });

/**
 * A ratio or edge as a percent in the user's language ('0.80' → '80%', '0.075' → '7.5%'), exactly: the digits are
 * moved by two places as text, never through a float.
 */
export function formatRatioPercent(ratio: string, lang: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(ratio);
  if (!match) return ratio;
  const fraction = match[3] ?? '';
  const digits = `${match[2] ?? '0'}${fraction.padEnd(2, '0')}`;
  const rest = fraction.slice(2);
  const whole = digits.slice(0, digits.length - rest.length).replace(/^0+(?=\d)/, '');
  return `${match[1]}${formatNumber(rest ? `${whole}.${rest}` : whole, lang, { min: 0, max: 6 })}%`;
}

/** Seconds as the period's label: '30s', '2m' for whole minutes. */
export const periodUnits = (seconds: number): { value: number; unit: 's' | 'm' } =>
  seconds % 60 === 0 ? { value: seconds / 60, unit: 'm' } : { value: seconds, unit: 's' };

/** A tick's or a contract's time to the second (contracts last seconds, so minutes are not enough). */
export const formatSecondTime = (ts: number, lang: string): string =>
  new Intl.DateTimeFormat(localeOf(lang), { dateStyle: 'medium', timeStyle: 'medium' }).format(ts);
