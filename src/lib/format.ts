import { type Decimal, type DecimalInput, toDecimal, truncatedString } from './money';

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

interface Separators {
  group: string;
  decimal: string;
}

const separatorCache = new Map<string, Separators>();

/** The locale's grouping and decimal symbols (read from Intl once; the digits themselves never pass through a float). */
function separatorsFor(lang: string): Separators {
  const cached = separatorCache.get(lang);
  if (cached) return cached;
  let group = ',';
  let decimal = '.';
  try {
    for (const part of new Intl.NumberFormat(localeOf(lang)).formatToParts(1234567.5)) {
      if (part.type === 'group') group = part.value;
      if (part.type === 'decimal') decimal = part.value;
    }
  } catch {
    // Unknown locale: keep the en symbols.
  }
  const found = { group, decimal };
  separatorCache.set(lang, found);
  return found;
}

function groupDigits(int: string, group: string): string {
  let out = '';
  for (let i = 0; i < int.length; i++) {
    if (i > 0 && (int.length - i) % 3 === 0) out += group;
    out += int[i];
  }
  return out;
}

export interface NumberFormatOptions {
  /** Fewest fraction digits shown (default 2). */
  min?: number;
  /** Most fraction digits shown; further digits are cut, never rounded (default 4). */
  max?: number;
  /** Group thousands (default true). */
  grouping?: boolean;
}

/**
 * Locale display of a price or amount: 1.234,56 for de, 1,234.56 for en; 2 to 4 fraction digits by default.
 * Exact: works on the decimal string. On bad input it logs and returns '0' (SPEC 8).
 */
export function formatNumber(
  value: DecimalInput | null | undefined,
  lang: string,
  opts: NumberFormatOptions = {},
): string {
  const min = opts.min ?? 2;
  const max = Math.max(opts.max ?? 4, min);
  const d = toDecimal(value);
  if (!d) {
    console.warn('formatNumber: not a number', value);
    return '0';
  }
  const fixed = truncatedString(d, max);
  const negative = fixed.startsWith('-');
  const [intPart = '0', rawFrac = ''] = (negative ? fixed.slice(1) : fixed).split('.');
  let frac = rawFrac;
  while (frac.length > min && frac.endsWith('0')) frac = frac.slice(0, -1);
  const { group, decimal } = separatorsFor(lang);
  const int = opts.grouping === false ? intPart : groupDigits(intPart, group);
  const isZero = /^0*$/.test(intPart + frac);
  const sign = negative && !isZero ? '-' : '';
  return frac ? `${sign}${int}${decimal}${frac}` : `${sign}${int}`;
}

/**
 * SPEC 9's truncating fixed-decimals helper, on decimal.js (not Number#toFixed, which rounds a float): exactly
 * `places` fraction digits, cut, no grouping, '.' as decimal: for inputs and wire values.
 */
export function truncatedFixed(value: DecimalInput | null | undefined, places: number): string {
  const d: Decimal | null = toDecimal(value);
  if (!d) {
    console.warn('truncatedFixed: not a number', value);
    return '0';
  }
  const out = truncatedString(d, places);
  return /^-0(\.0*)?$/.test(out) ? out.slice(1) : out;
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

/** A signed percentage with two decimals: '+1,25 %' in de, '+1.25%' in en. */
export function formatChange(value: DecimalInput | null | undefined, lang: string): string {
  const d = toDecimal(value);
  const text = formatNumber(d ?? 0, lang, { min: 2, max: 2 });
  const sign = d?.gt(0) ? '+' : '';
  return lang === 'de' ? `${sign}${text} %` : `${sign}${text}%`;
}

const COMPACT: readonly [string, number][] = [
  ['B', 9],
  ['M', 6],
  ['K', 3],
];

/** A volume shortened with K, M or B and up to two decimals, cut: 1234567 gives 1.23M (en) or 1,23M (de). */
export function formatVolume(value: DecimalInput | null | undefined, lang: string): string {
  const d = toDecimal(value);
  if (!d) return formatNumber(value, lang);
  for (const [suffix, exp] of COMPACT) {
    if (d.abs().gte(10 ** exp)) return `${formatNumber(d.div(10 ** exp), lang, { min: 0, max: 2 })}${suffix}`;
  }
  return formatNumber(d, lang, { min: 0, max: 2 });
}
