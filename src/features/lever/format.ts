import { formatChange, formatNumber } from '../../lib/format';

/** USDT amounts (margins, fees, balances): exact, cut (never rounded up), 2 to 4 decimals as SPEC 9 shows numbers. */
export const formatAmount = (value: string, lang: string): string => formatNumber(value, lang, { min: 2, max: 4 });

/** Floating P&L: 2 to 4 decimals, so a one-lot position still shows its cents move. */
export const formatPnl = (value: string, lang: string): string => formatNumber(value, lang, { min: 2, max: 4 });

/** A signed percent text ('12.5' is 12.5 %), as ROE is shown: '+12.50 %'. */
export const formatSignedPercent = (value: string, lang: string): string => formatChange(value, lang);

/** An unsigned percent text (a distance): the locale's percent pattern without the plus. */
export const formatPercent = (value: string, lang: string): string => formatChange(value, lang).replace('+', '');

/** The colour class of a signed amount: up, down, or plain at zero. */
export function signClass(value: string | null): string {
  if (value === null || /^-?0*(\.0*)?$/.test(value)) return '';
  return value.startsWith('-') ? 'lever-down' : 'lever-up';
}
