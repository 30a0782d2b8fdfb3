/**
 * Exact decimal strings handled as text, without decimal.js: reading, sign, order, cutting, and the one product the
 * market list needs (turnover). What only shows, sorts or cuts a price or amount uses this, so pages that do no
 * arithmetic (the first route among them) load no decimal library (DESIGN "Fast on a phone"). Arithmetic on money
 * stays with Decimal from core/money.ts. Nothing here goes through a JS float: digits stay strings, exponents are
 * small integers, and the product multiplies BigInts.
 *
 * Decimal text is what decimal.js reads as a finite decimal: an optional sign, digits with an optional fraction, an
 * optional exponent ('-12.50', '.5', '5.', '1e-7', '+3E2'). Not its hexadecimal, binary or octal forms, nor digits
 * separated by '_', nor surrounding spaces (toDecimalText trims them first). An exponent that puts the leading digit
 * above 10^9e15 is no finite number (decimal.js: Infinity); one below 10^-9e15 reads as zero (decimal.js underflows).
 */

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** decimal.js's default exponent limits (maxE, minE), which core/money's Decimal keeps. */
const MAX_EXPONENT = 9e15;

/** A decimal as ±digits × 10^exponent, digits without leading or trailing zeros ('' for zero, never negative). */
interface Parts {
  negative: boolean;
  digits: string;
  exponent: number;
}

const ZERO: Parts = { negative: false, digits: '', exponent: 0 };

/** Strips leading and trailing zeros from a digit string, moving the exponent with the trailing ones. */
function normalized(negative: boolean, all: string, exponent: number): Parts {
  let start = 0;
  while (start < all.length && all.charCodeAt(start) === 48) start++;
  let end = all.length;
  while (end > start && all.charCodeAt(end - 1) === 48) end--;
  if (start === end) return ZERO;
  return { negative, digits: all.slice(start, end), exponent: exponent + (all.length - end) };
}

function parse(text: string): Parts | null {
  const m = DECIMAL_TEXT.exec(text);
  if (!m) return null;
  const int = m[2] ?? '';
  const frac = m[3] ?? '';
  if (int === '' && frac === '') return null;
  const parts = normalized(m[1] === '-', int + frac, (m[4] === undefined ? 0 : Number(m[4])) - frac.length);
  const leading = parts.exponent + parts.digits.length - 1;
  if (parts.digits !== '' && leading > MAX_EXPONENT) return null;
  if (leading < -MAX_EXPONENT) return ZERO;
  return parts;
}

function parseOrThrow(text: string): Parts {
  const parts = parse(text);
  if (!parts) throw new RangeError(`not a decimal string: ${JSON.stringify(text)}`);
  return parts;
}

/** The plain form: no exponent, no '+', no redundant zeros, no negative zero (as Decimal#toString in core/money). */
function plain({ negative, digits, exponent }: Parts): string {
  if (digits === '') return '0';
  let body: string;
  if (exponent >= 0) body = digits + '0'.repeat(exponent);
  else {
    const point = digits.length + exponent;
    body = point > 0 ? `${digits.slice(0, point)}.${digits.slice(point)}` : `0.${'0'.repeat(-point)}${digits}`;
  }
  return negative ? `-${body}` : body;
}

/** Whether a string is decimal text (see above): '1.5', '-0.001', '1e-7' are; '', ' 1', '1,5', '0x10', 'NaN' are not. */
export const isDecimalText = (text: string): boolean => parse(text) !== null;

/**
 * The plain decimal string of a wire string (trimmed), a number or a Decimal, or null for anything that is not a
 * finite decimal: what `toDecimal(raw)?.toString()` gives, without decimal.js. A number is read from its shortest
 * round-trip digits, as decimal.js reads it.
 */
export function toDecimalText(raw: string | number | { toString(): string } | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const parts = parse(typeof raw === 'string' ? raw.trim() : String(raw));
  return parts ? plain(parts) : null;
}

/** -1, 0 or 1 as decimal text is below, at or above zero ('-0' is 0). Throws a RangeError for anything else. */
export function signOf(text: string): -1 | 0 | 1 {
  const { negative, digits } = parseOrThrow(text);
  return digits === '' ? 0 : negative ? -1 : 1;
}

/**
 * The decimal text with its sign turned, in plain form ('0.300000' gives '-0.3', '-2' gives '2', zero stays '0'):
 * for showing a cost (a fee paid) as the minus it is in a result. Throws a RangeError for anything not decimal text.
 */
export function negateText(value: string): string {
  const parts = parseOrThrow(value);
  return plain(parts.digits === '' ? ZERO : { ...parts, negative: !parts.negative });
}

/** Magnitude order of two nonzero values. */
function compareMagnitude(a: Parts, b: Parts): -1 | 0 | 1 {
  const leadA = a.exponent + a.digits.length;
  const leadB = b.exponent + b.digits.length;
  if (leadA !== leadB) return leadA > leadB ? 1 : -1;
  // Same position of the leading digit: digit by digit; with no trailing zeros, the longer one is larger on a tie.
  const n = Math.min(a.digits.length, b.digits.length);
  for (let i = 0; i < n; i++) {
    const da = a.digits.charCodeAt(i);
    const db = b.digits.charCodeAt(i);
    if (da !== db) return da > db ? 1 : -1;
  }
  return a.digits.length === b.digits.length ? 0 : a.digits.length > b.digits.length ? 1 : -1;
}

/**
 * Exact order of two decimal texts, of any length: -1, 0 or 1 like Decimal#comparedTo ('1.50' equals '1.5', '-0'
 * equals '0'). Throws a RangeError when either is not decimal text.
 */
export function compareDecimalText(a: string, b: string): -1 | 0 | 1 {
  const x = parseOrThrow(a);
  const y = parseOrThrow(b);
  const sx = x.digits === '' ? 0 : x.negative ? -1 : 1;
  const sy = y.digits === '' ? 0 : y.negative ? -1 : 1;
  if (sx !== sy) return sx > sy ? 1 : -1;
  if (sx === 0) return 0;
  const m = compareMagnitude(x, y);
  return sx < 0 ? ((-m || 0) as -1 | 0 | 1) : m;
}

/**
 * Decimal text cut (never rounded: towards zero) to exactly `digits` fraction digits, padded with zeros, '.' as the
 * decimal point, no grouping: '1.23456' at 4 gives '1.2345', '-0.00009' at 4 gives '0.0000' (a value cut to zero
 * has no minus), '5.9' at 0 gives '5'. What core/money's truncatedString gives for the same value. Throws a
 * RangeError when the value is not decimal text or `digits` is not a whole number from 0 to 1e9 (decimal.js's limit).
 */
export function truncateText(value: string, digits: number): string {
  if (!Number.isInteger(digits) || digits < 0 || digits > 1e9) throw new RangeError(`invalid digits: ${digits}`);
  let parts = parseOrThrow(value);
  if (parts.exponent < -digits) {
    // Keep the digits down to 10^-digits.
    const keep = parts.digits.length + parts.exponent + digits;
    parts = keep <= 0 ? ZERO : normalized(parts.negative, parts.digits.slice(0, keep), -digits);
  }
  const [int = '0', frac = ''] = plain(parts).split('.');
  return digits === 0 ? int : `${int}.${frac.padEnd(digits, '0')}`;
}

/**
 * The exact product of two decimal texts as plain decimal text ('12.5' × '0.2' gives '2.5'): every digit kept, no
 * precision limit. For ordering the market list by turnover (volume × last price). Throws a RangeError when either
 * is not decimal text.
 */
export function multiplyDecimalText(a: string, b: string): string {
  const x = parseOrThrow(a);
  const y = parseOrThrow(b);
  if (x.digits === '' || y.digits === '') return '0';
  const digits = (BigInt(x.digits) * BigInt(y.digits)).toString();
  return plain(normalized(x.negative !== y.negative, digits, x.exponent + y.exponent));
}
