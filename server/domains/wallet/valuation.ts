/**
 * Exact valuation of ledger balances at decimal prices, in BigInt: a balance is integer minor units of its currency
 * (10^-scale), a price an exact decimal string; their product is exact at scale + price decimals. Values are kept at
 * VALUE_SCALE decimals so they can be added across currencies; nothing is rounded (a price with more decimals than
 * VALUE_SCALE leaves room for would be cut, which no feed price comes near).
 */

export const VALUE_SCALE = 20;

const DECIMAL_RE = /^(\d+)(?:\.(\d+))?$/;

/** A non-negative decimal string as digits and scale: '64250.5' is { digits: 642505n, scale: 1 }. */
export function parseDecimal(text: string): { digits: bigint; scale: number } | null {
  const match = DECIMAL_RE.exec(text);
  if (!match) return null;
  const fraction = match[2] ?? '';
  return { digits: BigInt(`${match[1]}${fraction}`), scale: fraction.length };
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** `units` minor units of a currency with `scale` decimals, times `price`, as an integer at VALUE_SCALE. */
export function valueAt(units: number | bigint, scale: number, price: string): bigint {
  const p = parseDecimal(price);
  if (!p) throw new Error(`not a price: ${price}`);
  const product = BigInt(units) * p.digits;
  const productScale = scale + p.scale;
  return productScale <= VALUE_SCALE
    ? product * pow10(VALUE_SCALE - productScale)
    : product / pow10(productScale - VALUE_SCALE);
}

/** A VALUE_SCALE integer as the shortest exact decimal string: 1250000…0n gives '1.25', zero gives '0'. */
export function formatValue(value: bigint): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(VALUE_SCALE + 1, '0');
  const whole = digits.slice(0, -VALUE_SCALE);
  const fraction = digits.slice(-VALUE_SCALE).replace(/0+$/, '');
  const text = fraction ? `${whole}.${fraction}` : whole;
  return negative ? `-${text}` : text;
}
