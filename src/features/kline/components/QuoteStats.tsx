import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { Quote } from '../../../../protocol/market';
import { formatPrice } from '../../../lib/format';
import { formatVolume } from '../../market/public';

/** The 24 h statistics of one instrument. */
export function QuoteStats({ quote, priceScale }: { quote: Quote; priceScale: number }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const items: [string, string][] = [
    [t('kline.high'), formatPrice(quote.high, lang, priceScale)],
    [t('kline.low'), formatPrice(quote.low, lang, priceScale)],
    [t('kline.open'), formatPrice(quote.open, lang, priceScale)],
    [t('kline.volume'), formatVolume(quote.volume, lang)],
  ];
  return (
    <dl className="stats">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
