import { fromUnits } from '../../../protocol/rules/spot';
import { formatBalance } from '../../components/assets/format';
import { formatBalanceOf } from '../../lib/figures';
import { localeOf } from '../../lib/format';

/**
 * A wire amount in the user's locale, cut: money currencies (USDT) at two decimals in balances, cards and lists (the
 * one number rule, src/lib/figures.ts), others with their currency's decimals where they have them. Without
 * `currency`, every decimal the amount has (the exact figure of a detail or confirmation).
 */
export const formatAmount = (value: string, lang: string, scale: number, currency: string | null = null): string =>
  currency === null ? formatBalance(value, lang, scale) : formatBalanceOf(value, currency, lang, scale);

/** An amount in minor units, shown like a wire amount. */
export const formatUnits = (units: bigint, lang: string, scale: number): string =>
  formatBalance(fromUnits(units, scale), lang, scale);

const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => F): F {
  let f = formatters.get(key) as F | undefined;
  if (!f) {
    f = make();
    formatters.set(key, f);
  }
  return f;
}

/**
 * A rate given as a fraction ('0.0002') as a percentage in the locale's pattern ('0,02 %' in de, '0.02%' in en): Intl
 * multiplies the exact decimal string by 100 itself, so no float sees the rate; cut, never rounded up.
 */
export function formatRate(rate: string, lang: string): string {
  try {
    const nf = cached(
      `rate|${lang}`,
      () =>
        new Intl.NumberFormat(localeOf(lang), {
          style: 'percent',
          minimumFractionDigits: 2,
          maximumFractionDigits: 4,
          roundingMode: 'trunc',
        }),
    );
    return nf.format(rate as Intl.StringNumericLiteral);
  } catch (err) {
    console.warn('formatRate: formatting failed', rate, err);
    return '0';
  }
}

/**
 * A time in UTC in the user's language, for the times the rule fixes in UTC (interest starts and completion at
 * 00:00 UTC): shown in the user's own time zone they would read as some odd hour. The caller adds "UTC".
 */
export function formatUtc(ms: number | null | undefined, lang: string): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  try {
    const df = cached(
      `utc|${lang}`,
      () => new Intl.DateTimeFormat(localeOf(lang), { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }),
    );
    return df.format(new Date(ms));
  } catch {
    return '';
  }
}
