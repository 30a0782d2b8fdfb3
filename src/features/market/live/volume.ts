import { toDecimalText } from '../../../../core/decimal-text';
// A type only: formatting loads no decimal library (core/decimal-text.ts reads the strings exactly).
import type { DecimalInput } from '../../../../core/money';
import { localeOf } from '../../../lib/format';

// Here rather than in lib/format.ts, which every page loads: only the market list and chart show volumes.

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * A volume in the locale's compact notation with up to two decimals, cut: 1234567 gives 1.23M (en), 1,23 Mio. (de),
 * 123.45万 (ja, zh). Where the locale does not abbreviate a value of thousands (German has no short form below a
 * million) it is shown whole, since decimals would only widen a row ('196.994' rather than '196.994,07'). Small
 * values are shown as the locale does. On bad input it logs and returns '0'.
 */
export function formatVolume(value: DecimalInput | null | undefined, lang: string): string {
  const text = toDecimalText(value);
  if (text === null) {
    console.warn('formatVolume: not a number', value);
    return '0';
  }
  const compact = (maximumFractionDigits: number) => {
    const key = `${lang}|${maximumFractionDigits}`;
    let nf = formatters.get(key);
    if (!nf) {
      nf = new Intl.NumberFormat(localeOf(lang), { notation: 'compact', maximumFractionDigits, roundingMode: 'trunc' });
      formatters.set(key, nf);
    }
    // Intl reads the string as an exact decimal, never through a float (as lib/format.ts does).
    return nf.format(text as Intl.StringNumericLiteral);
  };
  const shown = compact(2);
  // Four digits before the decimal mark, together or grouped, mean the locale left thousands unabbreviated.
  return /\d{4}|\d\D\d{3}/.test(shown) ? compact(0) : shown;
}

/** A volume with its unit, the traded instrument (the one number rule: every figure with its unit), never parted. */
export const formatVolumeOf = (value: DecimalInput | null | undefined, unit: string, lang: string): string =>
  `${formatVolume(value, lang)}\u00a0${unit}`;
