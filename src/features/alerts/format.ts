import type { TFunction } from 'i18next';
import type { PriceAlert } from '../../../protocol/alerts';
import { formatNumber } from '../../lib/format';

/** Decimals written in an exact decimal text: '64250.50' has 2. */
const decimalsOf = (text: string): number => text.split('.')[1]?.length ?? 0;

/**
 * An alert's price or its tick's, exactly as the server stores it (on the instrument's step), in the user's format:
 * the price a user chose is shown as chosen, never cut to the list's usual 2 to 4 decimals.
 */
export function exactPrice(text: string, lang: string): string {
  const places = decimalsOf(text);
  return formatNumber(text, lang, { min: places, max: places });
}

/** "at or above 65,000.00 USDT": the alert's condition as a phrase. */
export function conditionText(t: TFunction, alert: Pick<PriceAlert, 'side' | 'price' | 'quote'>, lang: string): string {
  return t(`alerts.condition.${alert.side}`, { price: `${exactPrice(alert.price, lang)} ${alert.quote}` });
}

/** What a fired alert tells its owner: the instrument, the tick's price and the alert's level. */
export function noticeText(t: TFunction, alert: PriceAlert, lang: string): string {
  return t(`alerts.notice.${alert.side}`, {
    symbol: alert.symbol,
    price: alert.fired ? `${exactPrice(alert.fired.price, lang)} ${alert.quote}` : '',
    target: `${exactPrice(alert.price, lang)} ${alert.quote}`,
  });
}
