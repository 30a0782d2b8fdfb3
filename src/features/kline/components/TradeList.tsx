import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { Trade } from '../../../../protocol/market';
import { formatNumber, formatPrice, localeOf } from '../../../lib/format';

/** Recent trades, newest first: time, side-coloured price, amount. */
export function TradeList({
  trades,
  priceScale,
  qtyScale,
}: {
  trades: readonly Trade[];
  priceScale: number;
  qtyScale: number;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const clock = new Intl.DateTimeFormat(localeOf(lang), { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  if (trades.length === 0) return <p className="empty">{t('kline.noTrades')}</p>;
  return (
    <table className="trades">
      <thead>
        <tr>
          <th scope="col">{t('kline.time')}</th>
          <th scope="col">{t('kline.price')}</th>
          <th scope="col">{t('kline.amount')}</th>
        </tr>
      </thead>
      <tbody>
        {trades.map((trade) => (
          <tr key={trade.id}>
            <td>{clock.format(new Date(trade.ts))}</td>
            <td className={trade.side === 'buy' ? 'is-up' : 'is-down'}>
              <span className="sr-only">{t(trade.side === 'buy' ? 'kline.buy' : 'kline.sell')} </span>
              {formatPrice(trade.price, lang, priceScale)}
            </td>
            <td>{formatNumber(trade.qty, lang, { min: 0, max: Math.min(4, qtyScale) })}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
