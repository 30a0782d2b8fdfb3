import { signOf, toDecimalText, truncateText } from '../../core/decimal-text';
// A type only: formatting loads no decimal library (core/decimal-text.ts reads the strings exactly).
import type { DecimalInput } from '../../core/money';

/** BCP 47 locale per interface language (the stored language-mark); other codes pass through. */
export const LOCALE_OF: Record<string, string> = {
  de: 'de-DE',
  en: 'en-US',
  ja: 'ja-JP',
  ko: 'ko-KR',
  es: 'es-ES',
  th: 'th-TH',
  zh: 'zh-CN',
};

export const localeOf = (lang: string): string => LOCALE_OF[lang] ?? lang;

/** Intl's limit for fraction digits. */
const MAX_FRACTION_DIGITS = 100;

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * One cached Intl.NumberFormat per (language, options). A language Intl cannot take (a malformed tag) falls back to
 * en-US; a well-formed but unknown one gets Intl's own default locale.
 */
function numberFormat(lang: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${lang}|${JSON.stringify(options)}`;
  let nf = formatters.get(key);
  if (!nf) {
    try {
      nf = new Intl.NumberFormat(localeOf(lang), options);
    } catch {
      nf = new Intl.NumberFormat('en-US', options);
    }
    formatters.set(key, nf);
  }
  return nf;
}

/**
 * Formats an exact decimal string. Intl.NumberFormat (v3: Chromium 106, Safari 15.4, Node 20) reads a string as an
 * exact decimal, never through a float, and `roundingMode: 'trunc'` cuts instead of rounding.
 */
function formatExact(decimal: string, lang: string, options: Intl.NumberFormatOptions, what: string): string {
  try {
    return numberFormat(lang, options).format(decimal as Intl.StringNumericLiteral);
  } catch (err) {
    console.warn(`${what}: formatting failed`, decimal, err);
    return '0';
  }
}

const clampDigits = (n: number): number => Math.min(MAX_FRACTION_DIGITS, Math.max(0, Math.trunc(n)));

export interface NumberFormatOptions {
  /** Fewest fraction digits shown (default 2). */
  min?: number;
  /** Most fraction digits shown; further digits are cut, never rounded (default 4). */
  max?: number;
  /** Group thousands as the locale does (default true). */
  grouping?: boolean;
  /** A plus above zero as well as a minus below it (a profit or loss); a value cut to zero shows neither. */
  signed?: boolean;
}

/**
 * Locale display of a price or amount: 1.234,56 for de, 1,234.56 for en, 1234,56 for es (CLDR: no grouping below
 * five digits); 2 to 4 fraction digits by default, cut. Exact: Intl formats the decimal string. A value that is cut
 * to zero shows no minus sign (nor a plus when `signed`). On bad input it logs and returns '0' (SPEC 8).
 */
export function formatNumber(
  value: DecimalInput | null | undefined,
  lang: string,
  opts: NumberFormatOptions = {},
): string {
  const min = clampDigits(opts.min ?? 2);
  const max = Math.max(clampDigits(opts.max ?? 4), min);
  const text = toDecimalText(value);
  if (text === null) {
    console.warn('formatNumber: not a number', value);
    return '0';
  }
  return formatExact(
    text,
    lang,
    {
      minimumFractionDigits: min,
      maximumFractionDigits: max,
      roundingMode: 'trunc',
      useGrouping: opts.grouping === false ? false : 'auto',
      // Intl decides the sign after cutting, so -0.004 at two decimals shows as 0.00 either way.
      signDisplay: opts.signed ? 'exceptZero' : 'negative',
    },
    'formatNumber',
  );
}

/**
 * SPEC 9's truncating fixed-decimals helper, on the exact decimal string (not Number#toFixed, which rounds a float):
 * exactly `places` fraction digits, cut, no grouping, '.' as decimal, no minus on a value cut to zero: for inputs
 * and wire values (not locale display). `places` must be a whole number from 0 (a RangeError otherwise).
 */
export function truncatedFixed(value: DecimalInput | null | undefined, places: number): string {
  const text = toDecimalText(value);
  if (text === null) {
    console.warn('truncatedFixed: not a number', value);
    return '0';
  }
  return truncateText(text, places);
}

export interface MoneyFormatOptions {
  /** A plus on a gain as well as a minus on a loss (a result); a value cut to zero shows neither. */
  signed?: boolean;
  /** Every decimal the value has, at least two (the exact figure a detail page shows), instead of two. */
  exact?: boolean;
}

/** Between a figure and its unit: a no-break space, so that the unit never wraps onto a line of its own. */
const UNIT_SPACE = '\u00a0';

/**
 * A money value with its unit, the one display rule for money (issue 26 "One number rule"): in balances, totals and
 * lists two decimals cut toward zero ('1,234.56 USDT', '-12.00 USDT'), on detail pages the exact figure
 * ('9.600001 USDT'). Cut, never rounded: a list never shows more than there is.
 */
export function formatMoney(
  value: DecimalInput | null | undefined,
  unit: string,
  lang: string,
  opts: MoneyFormatOptions = {},
): string {
  const decimals = toDecimalText(value)?.split('.')[1]?.length ?? 0;
  const max = opts.exact ? Math.max(2, decimals) : 2;
  return `${formatNumber(value, lang, { min: 2, max, signed: opts.signed === true })}${UNIT_SPACE}${unit}`;
}

/** A date and time in the user's language; '' for a missing timestamp. Accepts seconds or milliseconds. */
export function formatDateTime(ts: number | null | undefined, lang: string, withTime = true): string {
  if (ts === null || ts === undefined || !Number.isFinite(ts)) return '';
  const ms = ts < 1e12 ? ts * 1000 : ts;
  try {
    return new Intl.DateTimeFormat(localeOf(lang), {
      dateStyle: 'medium',
      ...(withTime ? { timeStyle: 'short' } : {}),
    }).format(new Date(ms));
  } catch {
    return '';
  }
}

/** Decimals shown for a price: the instrument's own scale within SPEC 9's 2 to 4. */
export const priceDecimals = (priceScale: number): number => Math.min(4, Math.max(2, priceScale));

/** A price with a fixed number of decimals (so a live column does not jitter), cut, in the user's locale. */
export function formatPrice(value: DecimalInput | null | undefined, lang: string, priceScale: number): string {
  const places = priceDecimals(priceScale);
  return formatNumber(value, lang, { min: places, max: places });
}

/**
 * A signed percentage (the value is in percent: '1.25' is 1.25 %) with two decimals, cut, in the locale's percent
 * pattern: '+1,25 %' in de and es (no-break space), '+1.25%' in en. A plus only above zero; a value cut to zero
 * shows no minus. A missing or bad value shows as zero percent.
 */
export function formatChange(value: DecimalInput | null | undefined, lang: string): string {
  const text = toDecimalText(value);
  // Intl's percent style multiplies by 100; the exponent suffix divides the exact string by 100 without arithmetic.
  const fraction = text === null ? '0' : `${text}e-2`;
  return formatExact(
    fraction,
    lang,
    {
      style: 'percent',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
      roundingMode: 'trunc',
      signDisplay: text !== null && signOf(text) > 0 ? 'always' : 'negative',
    },
    'formatChange',
  );
}
