import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { SpotOrder } from '../../../../protocol/spot';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { RecheckMark } from './RecheckMark';

/** What an order's fill used and moved: its recorded tick (sequence and time), price, value, fee and total. */
export function FillDetail({ order }: { order: SpotOrder }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const fill = order.fill;
  if (!fill) return <p className="spot-muted">{t('spot.fill.none')}</p>;
  const exact = (v: string) => formatNumber(v, lang, { min: 2, max: 8 });
  const rows: [string, string, string][] = [
    ['tick', t('spot.fill.tick'), `#${fill.tick.seq}`],
    ['time', t('spot.fill.time'), formatDateTime(fill.tick.ts, lang)],
    ['price', t('spot.fill.price'), `${exact(fill.price)} USDT`],
    ['qty', t('spot.fill.qty'), `${exact(fill.qty)} ${order.symbol}`],
    ['value', t('spot.fill.value'), `${exact(fill.value)} USDT`],
    ['fee', t('spot.fill.fee'), `${exact(fill.fee)} USDT`],
    ['total', order.side === 'buy' ? t('spot.fill.totalBuy') : t('spot.fill.totalSell'), `${exact(fill.total)} USDT`],
  ];
  return (
    <div className="spot-fill" data-testid={`fill-${order.id}`}>
      <dl className="spot-facts">
        {rows.map(([key, label, value]) => (
          <div key={key} data-testid={`fill-${key}`}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <RecheckMark order={order} />
    </div>
  );
}
