import { toDecimalText } from './decimal-text';

/*
 * The one ratio the chart's readout needs (a bar's change), on exact decimal text without decimal.js, like
 * decimal-text.ts but apart from it: that module loads with every page, this one only with the chart's.
 */

/** Decimal text as a BigInt count of 10^-scale. */
function units(text: string): { n: bigint; scale: number } {
  const plain = toDecimalText(text);
  if (plain === null) throw new RangeError(`not a decimal string: ${JSON.stringify(text)}`);
  const [int = '0', frac = ''] = plain.split('.');
  return { n: BigInt(int + frac), scale: frac.length };
}

/**
 * The change from `from` to `to` in percent, cut toward zero to exactly `digits` fraction digits, as truncateText
 * writes it: from '64000' to '64640' at 2 digits gives '1.00', from '3' to '2' gives '-33.33', and a change cut to
 * zero has no minus. Null when `from` is zero (no change can be told). Throws a RangeError when either is not
 * decimal text or `digits` is not a whole number from 0 to 100.
 */
export function changePercentText(from: string, to: string, digits: number): string | null {
  if (!Number.isInteger(digits) || digits < 0 || digits > 100) throw new RangeError(`invalid digits: ${digits}`);
  const a = units(from);
  const b = units(to);
  if (a.n === 0n) return null;
  const scale = Math.max(a.scale, b.scale);
  const base = a.n * 10n ** BigInt(scale - a.scale);
  const next = b.n * 10n ** BigInt(scale - b.scale);
  // BigInt division cuts toward zero: the percent times 10^digits, cut.
  const cut = ((next - base) * 100n * 10n ** BigInt(digits)) / base;
  const abs = (cut < 0n ? -cut : cut).toString().padStart(digits + 1, '0');
  const body = digits ? `${abs.slice(0, -digits)}.${abs.slice(-digits)}` : abs;
  return cut < 0n ? `-${body}` : body;
}
