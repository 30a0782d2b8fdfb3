import DecimalBase from 'decimal.js';

/**
 * The one place that turns raw input (wire strings, user input) into exact decimals.
 * The clone never switches to exponent notation, so `toString()` is always a plain decimal string.
 */
export const Decimal = DecimalBase.clone({ precision: 40, toExpNeg: -9e15, toExpPos: 9e15 });
export type Decimal = InstanceType<typeof Decimal>;

export type DecimalInput = string | number | Decimal;

/** An exact decimal from a wire string, a number literal or a Decimal; null for anything not finite. */
export function toDecimal(raw: DecimalInput | null | undefined): Decimal | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'string' && raw.trim() === '') return null;
  try {
    const d = new Decimal(typeof raw === 'string' ? raw.trim() : raw);
    return d.isFinite() ? d : null;
  } catch {
    return null;
  }
}

/** Cut (never round) to `places` fraction digits and pad with zeros: 1.23456 at 4 gives '1.2345'. */
export function truncatedString(value: Decimal, places: number): string {
  const cut = value.toDecimalPlaces(places, Decimal.ROUND_DOWN);
  const plain = cut.isZero() ? '0' : cut.toString();
  const [int = '0', frac = ''] = plain.split('.');
  if (places <= 0) return int;
  return `${int}.${frac.padEnd(places, '0')}`;
}

/** Reading typed amounts needs no Decimal (core/locale-amount.ts); exported here as before. */
export { parseLocaleAmount } from './locale-amount';
