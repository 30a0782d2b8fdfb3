/**
 * Exact decimal strings from an exchange turned into the feed's integer units, without a float anywhere.
 *
 * The exchange writes every price and quantity with a fixed 8 decimals ("64250.12000000"); our instruments
 * keep fewer (BTC prices in 0.01, quantities in 0.00001). `parseUnits` of instruments.ts rejects extra
 * decimals on purpose (it guards our own constants), so the exchange's strings come through here instead.
 */

/** A non-negative decimal exactly as written: `digits / 10^decimals` ("12.50" is 1250n with 2 decimals). */
export interface ExactDecimal {
  readonly digits: bigint;
  readonly decimals: number;
}

/** Longer texts are refused before any BigInt work: no real price or quantity needs 40 characters. */
const MAX_TEXT = 40;
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Plain digits with an optional fraction ("0.5", "97012.34000000"); no sign, exponent, spaces or bare dots. */
export function parseExactDecimal(text: unknown): ExactDecimal | undefined {
  if (typeof text !== 'string' || text.length > MAX_TEXT) return undefined;
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  return { digits: BigInt(`${match[1]}${fraction}`), decimals: fraction.length };
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** A BigInt count of units as a number, or undefined when it would not be an exact (safe) integer. */
function safeUnits(units: bigint): number | undefined {
  return units <= MAX_SAFE ? Number(units) : undefined;
}

/**
 * `value` in units of 10^-scale, truncated toward zero: digits beyond the scale are dropped, not rounded.
 * Truncating never publishes a price that nobody traded past (a trade at 0.123459 shows as 0.12345, not
 * 0.12346), needs no rule for halves, and for the pairs we map the dropped digits are zeros anyway (the
 * exchange's tick and lot sizes are no finer than our scales). Undefined when the result is not a safe integer.
 */
export function truncateToUnits(value: ExactDecimal, scale: number): number | undefined {
  const shift = scale - value.decimals;
  return safeUnits(shift >= 0 ? value.digits * pow10(shift) : value.digits / pow10(-shift));
}

/** 1 / `value` in units of 10^-scale, truncated; undefined for zero or an unsafe result. */
export function inverseToUnits(value: ExactDecimal, scale: number): number | undefined {
  if (value.digits === 0n) return undefined;
  // 1 / (digits / 10^decimals) = 10^decimals / digits; times 10^scale for units. BigInt division truncates.
  return safeUnits(pow10(value.decimals + scale) / value.digits);
}

/** `a × b` in units of 10^-scale, truncated; undefined when unsafe. */
export function productToUnits(a: ExactDecimal, b: ExactDecimal, scale: number): number | undefined {
  return safeUnits((a.digits * b.digits * pow10(scale)) / pow10(a.decimals + b.decimals));
}

/** Text straight to truncated units: undefined when malformed or out of the safe range. */
export function decimalToUnits(text: unknown, scale: number): number | undefined {
  const value = parseExactDecimal(text);
  return value ? truncateToUnits(value, scale) : undefined;
}
