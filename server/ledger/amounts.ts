import { SYMBOL_RE } from '../../protocol/market';
import { INSTRUMENTS } from '../market';

/**
 * Ledger amounts are integers of minor units (10^-scale of the currency), held in JS numbers that stay exact:
 * one amount is at most MAX_AMOUNT_UNITS, a balance at most Number.MAX_SAFE_INTEGER. Decimal strings exist only
 * at the edge (parseAmount in, formatAmount out); nothing here ever rounds.
 */

/** Stablecoins settle to 6 decimals (their common on-chain precision); every other coin to 8, like BTC. */
const STABLE_SCALE = 6;
export const COIN_SCALE = 8;

const scales = new Map(
  INSTRUMENTS.filter((i) => i.kind === 'coin').map((i) => [i.symbol, i.stable ? STABLE_SCALE : COIN_SCALE]),
);

/**
 * Every currency the ledger keeps with its scale: the static coins (BTC, ETH, USDT, USDC first, as in SPEC 3), then
 * the ones of its `ledger_currencies` table (coins listed at run time) as this process loads them (currencies.ts). A
 * live map: whoever iterates it sees the currencies known at that moment.
 */
export const CURRENCY_SCALES: ReadonlyMap<string, number> = scales;

/** The static coins: their scales are fixed in code, never rows of `ledger_currencies`. */
const STATIC_CURRENCIES: ReadonlySet<string> = new Set(scales.keys());

export const isStaticCurrency = (currency: string): boolean => STATIC_CURRENCIES.has(currency);

/** Largest scale a currency may have: MAX_AMOUNT_UNITS must still be more than one whole unit. */
const MAX_SCALE = 12;

/**
 * Makes `symbol` a ledger currency of `scale` decimals in this process; nothing happens when it is one already with
 * that scale. Throws for another scale (amounts already stored would change their meaning) or an invalid symbol.
 * The rows of `ledger_currencies` come here when loaded (currencies.ts: at start, then polled, and at once in the
 * process that adds one).
 */
export function registerListedCurrency(symbol: string, scale: number): void {
  if (!SYMBOL_RE.test(symbol)) throw new Error(`not a currency symbol: ${symbol}`);
  if (!Number.isInteger(scale) || scale < 0 || scale > MAX_SCALE) throw new Error(`${symbol}: scale ${scale}`);
  const known = scales.get(symbol);
  if (known === scale) return;
  if (known !== undefined) throw new Error(`${symbol} is a ledger currency of scale ${known} already, not ${scale}`);
  scales.set(symbol, scale);
}

export const isCurrency = (currency: string): boolean => scales.has(currency);

/** Decimals of `currency`; throws for a currency the ledger does not keep (callers check isCurrency first). */
export function currencyScale(currency: string): number {
  const scale = scales.get(currency);
  if (scale === undefined) throw new Error(`not a ledger currency: ${currency}`);
  return scale;
}

/**
 * Largest single amount: 10^15 minor units (10 million BTC, a billion USDT). Kept well under 2^53 so that a
 * balance can take many such amounts before it, too, would stop being exact (balances are checked separately).
 */
export const MAX_AMOUNT_UNITS = 1_000_000_000_000_000;

/** Why an amount was refused; each is a key of the `errors` locale namespace. */
export type AmountErrorKey =
  | 'currencyUnsupported'
  | 'amountRequired'
  | 'amountInvalid'
  | 'amountNotPositive'
  | 'amountTooPrecise'
  | 'amountTooLarge';

export type AmountResult = { ok: true; units: number } | { ok: false; error: AmountErrorKey };

const refuse = (error: AmountErrorKey): AmountResult => ({ ok: false, error });

/** Plain decimal notation only: no sign, exponent, grouping, or locale comma (the client sends dot decimals). */
const DECIMAL_RE = /^(\d*)(?:\.(\d*))?$/;

/**
 * A user-typed decimal string as minor units of `currency`. Refuses what the ledger cannot hold exactly:
 * more decimals than the currency has (trailing zeros are fine), zero or negative amounts, and amounts above
 * MAX_AMOUNT_UNITS. Works on the digits as text, so no float ever sees the value.
 */
export function parseAmount(currency: string, text: string): AmountResult {
  const scale = scales.get(currency);
  if (scale === undefined) return refuse('currencyUnsupported');
  const trimmed = text.trim();
  if (trimmed === '') return refuse('amountRequired');
  if (/^-\d*\.?\d/.test(trimmed)) return refuse('amountNotPositive');
  const match = DECIMAL_RE.exec(trimmed);
  const rawWhole = match?.[1] ?? '';
  const rawFraction = match?.[2] ?? '';
  if (!match || (rawWhole === '' && rawFraction === '')) return refuse('amountInvalid');
  const whole = rawWhole.replace(/^0+/, '');
  const fraction = rawFraction.replace(/0+$/, '');
  if (fraction.length > scale) return refuse('amountTooPrecise');
  // MAX_AMOUNT_UNITS has 16 digits; anything longer is too large without building a number from it.
  if (whole.length + scale > 16) return refuse('amountTooLarge');
  const units = BigInt(`${whole}${fraction.padEnd(scale, '0')}` || '0');
  if (units === 0n) return refuse('amountNotPositive');
  if (units > BigInt(MAX_AMOUNT_UNITS)) return refuse('amountTooLarge');
  return { ok: true, units: Number(units) };
}

/** The same checks for an amount already in minor units (service calls from other server code). */
export function checkUnits(units: number): AmountErrorKey | null {
  if (!Number.isSafeInteger(units)) return Number.isInteger(units) ? 'amountTooLarge' : 'amountInvalid';
  if (units <= 0) return 'amountNotPositive';
  if (units > MAX_AMOUNT_UNITS) return 'amountTooLarge';
  return null;
}

/** Minor units as an exact decimal string with all of the currency's decimals: formatAmount('USDT', 1500000) === '1.500000'. */
export function formatAmount(currency: string, units: number | bigint): string {
  if (typeof units === 'number' && !Number.isSafeInteger(units)) throw new Error(`not an exact amount: ${units}`);
  const scale = currencyScale(currency);
  const value = BigInt(units);
  const digits = (value < 0n ? -value : value).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return value < 0n ? `-${text}` : text;
}
