import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { IeoOrder } from '../../../../protocol/ieo';
import type { IeoOrderStream } from '../../../../streams/ieo/subscriptions';
import { Icon } from '../../../components/Icon';
import { formatUsdt } from '../../../lib/figures';
import { formatDateTime } from '../../../lib/format';
import { formatCoin } from '../format';
import { useSubscription } from '../hooks/useSubscription';
import { StatusBadge } from './Badges';

/**
 * One subscription in a list: its own machine (the same as the order page's), so its badge turns to "processing"
 * when a step's time passes and to the next status when the server's update arrives; opens the order page.
 */
export function OrderRow({
  order,
  stream,
  now,
}: {
  order: IeoOrder;
  stream: IeoOrderStream;
  now: number;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { view } = useSubscription(order, stream, now);
  const o = view.order;
  const coin = (v: string) => `${formatCoin(v, lang)} ${o.coin}`;
  return (
    <li data-testid={`ieo-order-${o.id}`} data-step={view.step}>
      <Link to="/pages/assets/ieo/orderDetail" search={{ id: o.id }} className="card ieo-card is-action">
        <div className="ieo-card-head">
          <span className="ieo-card-title">
            <span className="ieo-card-name">{o.name}</span>
            <span className="ieo-card-coin">{o.coin}</span>
          </span>
          <StatusBadge label={view.label} />
          <Icon name="chevron" size={18} className="ieo-card-chevron" />
        </div>
        <dl className="kv ieo-kv">
          <dt>{t('ieo.order.quantity')}</dt>
          <dd>{coin(o.quantity)}</dd>
          {o.allotment_quantity !== null ? (
            <>
              <dt>{t('ieo.order.allotmentQuantity')}</dt>
              <dd>{coin(o.allotment_quantity)}</dd>
            </>
          ) : null}
          {o.payment !== null && (view.step === 'allotted' || view.step === 'paying') ? (
            <>
              <dt>{t('ieo.order.payment')}</dt>
              <dd>{formatUsdt(o.payment, lang)}</dd>
            </>
          ) : null}
          <dt>{t('ieo.order.applyTime')}</dt>
          <dd>{formatDateTime(o.apply_time, lang)}</dd>
        </dl>
        {view.step === 'allotted' ? (
          <p className="ieo-due" data-testid="ieo-due">
            <Icon name="clock" size={14} />
            <span>{t('ieo.orders.payBy', { time: formatDateTime(o.pay_date, lang) })}</span>
          </p>
        ) : null}
        <p className="ieo-mono ieo-sn">{o.sn}</p>
      </Link>
    </li>
  );
}
