import type { Exact } from '../../../protocol/rules/lever';
import { fromUnits } from '../../../protocol/rules/spot';
import { formatChange, formatMoney, formatNumber } from '../../lib/format';

/**
 * USDT amounts (margins, fees, balances, P&L) on the ticket, rows and totals: two decimals cut toward zero, never
 * rounded up (the one number rule, src/lib/figures.ts); the caller adds the unit.
 */
export const formatAmount = (value: string, lang: string): string => formatNumber(value, lang, { min: 2, max: 2 });

/** A USDT figure of the ticket, rows and totals with its unit: '9.347,80 USDT'. */
export const formatUsdt = (value: string, lang: string): string => formatMoney(value, 'USDT', lang);

/** A signed percent text ('12.5' is 12.5 %), as ROE is shown: '+12.50 %'. */
export const formatSignedPercent = (value: string, lang: string): string => formatChange(value, lang);

/** An unsigned percent text (a distance): the locale's percent pattern without the plus. */
export const formatPercent = (value: string, lang: string): string => formatChange(value, lang).replace('+', '');

/**
 * The colour class of a signed amount as it is shown (two decimals, cut toward zero): up, down, or plain when the
 * figure reads zero, so a loss of 0.004 USDT shown as '0.00' is not painted red.
 */
export function signClass(value: string | null): string {
  if (value === null) return '';
  const [whole = '', fraction = ''] = value.replace(/^[-+]/, '').split('.');
  if (/^0*$/.test(whole + fraction.slice(0, 2))) return '';
  return value.startsWith('-') ? 'lever-down' : 'lever-up';
}

/** A quantity in the base coin (Q = lots × contract size), exact: every digit the rule gives, none more. */
export const formatQuantity = (q: Exact, lang: string): string =>
  formatNumber(fromUnits(q.units, q.scale), lang, { min: 0, max: q.scale });
