import { IEO_COIN_SCALE } from '../../../protocol/ieo';
import { fromUnits, pow10, toUnits } from '../../../protocol/rules/spot';
import { formatBalance } from '../../components/assets/format';
import { formatNumber, localeOf } from '../../lib/format';

/** USDT in the ledger has 6 decimals (DESIGN "The ledger"); the IEO is paid in USDT. */
export const IEO_PAY_SCALE = 6;

/** A coin quantity: every decimal it has (up to the coin's 8), none when whole: 5,000 or 1,234.56789012. */
export const formatCoin = (value: string, lang: string): string =>
  formatNumber(value, lang, { min: 0, max: IEO_COIN_SCALE });

/** A price or a USDT amount with the decimals it has, at least two: 0.05, 61.728395. */
export const formatMoney = (value: string, lang: string): string => formatBalance(value, lang);

/** Units of a wire amount of `scale` decimals (0 for anything the server would not send). */
export const unitsOf = (text: string, scale: number): bigint => toUnits(text, scale) ?? 0n;

/** Decimals of the share of the supply kept before it is shown as a percentage (4 of them after the point). */
const SHARE_SCALE = 6;

/**
 * What was subscribed as a share of the supply, exactly: subscribed ÷ supply cut to 6 decimals (0.0001 %), as a
 * fraction's decimal text ('0.123456' is 12.3456 %). It may pass 1 (oversubscribed: the allotment is then pro rata).
 */
export function shareOfSupply(subscribed: string, supply: string): string {
  const total = unitsOf(supply, IEO_COIN_SCALE);
  if (total <= 0n) return '0';
  return fromUnits((unitsOf(subscribed, IEO_COIN_SCALE) * pow10(SHARE_SCALE)) / total, SHARE_SCALE);
}

/** Whole percent of the supply subscribed, 0 to 100, for the width of a bar (never money). */
export function sharePercentForBar(subscribed: string, supply: string): number {
  const total = unitsOf(supply, IEO_COIN_SCALE);
  if (total <= 0n) return 0;
  const pct = (unitsOf(subscribed, IEO_COIN_SCALE) * 100n) / total;
  return Number(pct > 100n ? 100n : pct);
}

const percentFormats = new Map<string, Intl.NumberFormat>();

/** A fraction's decimal text as a percentage in the locale's pattern, cut to 4 decimals: '12,3456 %' in de. */
export function formatShare(fraction: string, lang: string): string {
  try {
    let nf = percentFormats.get(lang);
    if (!nf) {
      nf = new Intl.NumberFormat(localeOf(lang), {
        style: 'percent',
        minimumFractionDigits: 0,
        maximumFractionDigits: 4,
        roundingMode: 'trunc',
      });
      percentFormats.set(lang, nf);
    }
    return nf.format(fraction as Intl.StringNumericLiteral);
  } catch (err) {
    console.warn('formatShare: formatting failed', fraction, err);
    return '0';
  }
}

/** Time left as the clock shows it: 02:03:04, and whole days in front when there are any (`days` > 0). */
export function splitDuration(ms: number): { days: number; clock: string } {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86_400);
  const rest = total % 86_400;
  const two = (n: number) => String(n).padStart(2, '0');
  return { days, clock: `${two(Math.floor(rest / 3600))}:${two(Math.floor((rest % 3600) / 60))}:${two(rest % 60)}` };
}
