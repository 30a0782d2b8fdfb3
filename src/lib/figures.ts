import type { DecimalInput } from '../../core/money';
import { formatMoney, formatNumber } from './format';

/**
 * The one number rule (issue 26), one display per kind of figure, each with its unit:
 * - a price at its instrument's tick (`formatPrice` with the instrument's price scale);
 * - a quantity at its instrument's unit (`formatQuantity` with its quantity scale);
 * - money (USDT and other currencies' values) in balances, totals, tickets and lists at two decimals cut toward zero,
 *   the exact figure on detail pages and confirmation sheets (`formatMoney`, `{ exact: true }`);
 * - a volume in the locale's compact notation (`formatVolume` of src/features/market/live/volume.ts, the only pages
 *   that show volumes).
 * Every figure is cut, never rounded: nothing shows more than there is. This module holds what the shell does not
 * need, so that it loads with the pages that show such figures.
 */
export { formatMoney, formatPrice } from './format';

/** A quantity of `unit` at its quantity scale, cut, with its unit: '0.00123 BTC', '12 AAPL'. */
export const formatQuantity = (value: DecimalInput | null | undefined, unit: string, lang: string, scale: number) =>
  `${formatNumber(value, lang, { min: 0, max: scale })}\u00a0${unit}`;

/** Currencies shown as money (two decimals in lists) rather than as quantities of a coin. */
const MONEY_UNITS: ReadonlySet<string> = new Set(['USDT', 'USDC']);

/** A holding of any currency as lists show it: money at two decimals ('50.00 USDT'), a coin at its scale ('0.5 BTC'). */
export const formatHolding = (value: DecimalInput | null | undefined, unit: string, lang: string, scale: number) =>
  MONEY_UNITS.has(unit) ? formatMoney(value, unit, lang) : formatQuantity(value, unit, lang, scale);

/**
 * A balance's figure without its unit, for texts that place the unit themselves: money at two decimals cut
 * ('9,347.80'), other coins with their decimals where they have them, at least two ('0.125').
 */
export const formatBalanceOf = (value: string, unit: string, lang: string, scale = 8): string =>
  formatNumber(value, lang, { min: 2, max: MONEY_UNITS.has(unit) ? 2 : Math.max(2, scale) });

/** A USDT value as lists, balances and tickets show it: '9,347.80 USDT'. */
export const formatUsdt = (value: DecimalInput | null | undefined, lang: string, exact = false): string =>
  formatMoney(value, 'USDT', lang, { exact });
