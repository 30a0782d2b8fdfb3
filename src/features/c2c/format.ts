import { C2C_FIAT_SCALE } from '../../../protocol/c2c';
import { formatNumber } from '../../lib/format';

/**
 * Numbers of the C2C pages, all through the app's exact formatting (src/lib/format.ts: Intl over the decimal strings,
 * cut, never rounded, in the user's language: 1.234,56 in German).
 */

/** A fiat amount: always two decimals (cents), e.g. 1.234,50 EUR. */
export const formatFiat = (value: string, lang: string): string =>
  formatNumber(value, lang, { min: C2C_FIAT_SCALE, max: C2C_FIAT_SCALE });

/** A price in fiat per coin: two decimals at least, every further one it has (up to the price scale). */
export const formatC2cPrice = (value: string, lang: string): string => formatNumber(value, lang, { min: 2, max: 6 });

/** A coin quantity: every decimal it has, up to the coin's scale, none when whole. */
export const formatCoin = (value: string, lang: string, scale = 8): string =>
  formatNumber(value, lang, { min: 0, max: scale });

/** Time left as a clock: 29:59, with hours in front when there are any (never for a 30-minute window). */
export function clockOf(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  const hours = Math.floor(total / 3600);
  const rest = `${two(Math.floor((total % 3600) / 60))}:${two(total % 60)}`;
  return hours > 0 ? `${hours}:${rest}` : rest;
}
