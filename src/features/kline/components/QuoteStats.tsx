import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { Quote } from '../../../../protocol/market';
import { formatPrice } from '../../../lib/format';
import { formatVolumeOf } from '../../market/public';

/** The 24 h statistics of one instrument; its volume is in the instrument's own unit. */
export function QuoteStats({
  quote,
  priceScale,
  unit,
}: {
  quote: Quote;
  priceScale: number;
  unit: string;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const items: [string, string, string][] = [
    ['high', t('kline.high'), formatPrice(quote.high, lang, priceScale)],
    ['low', t('kline.low'), formatPrice(quote.low, lang, priceScale)],
    ['open', t('kline.open'), formatPrice(quote.open, lang, priceScale)],
    ['volume', t('kline.volume'), formatVolumeOf(quote.volume, unit, lang)],
  ];
  return (
    <dl className="stats">
      {items.map(([name, label, value]) => (
        <div key={name}>
          <dt>{label}</dt>
          <dd data-testid={`stat-${name}`}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
