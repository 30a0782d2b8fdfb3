import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { labelOf } from '../../../../machines/c2c/steps';
import type { C2cOrder } from '../../../../protocol/c2c';
import { Icon } from '../../../components/Icon';
import { formatHolding } from '../../../lib/figures';
import { formatDateTime } from '../../../lib/format';
import { formatFiat } from '../format';
import { StatusBadge } from './Badges';

/**
 * One order in a list: the other side, quantity, amount and status (with "expiring" once its window has ended on the
 * server clock), and while it is unpaid the time it must be paid by; opens the order page.
 */
export function OrderRow({ order: o, now }: { order: C2cOrder; now: number }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const label = labelOf(o, now);
  return (
    <li data-testid={`c2c-order-${o.id}`} data-status={o.status}>
      <Link to="/pages/assets/c2c/orderDetail" search={{ id: o.id }} className="card c2c-order-row is-action">
        <div className="c2c-row-head">
          <span className="c2c-row-title">
            <span className="c2c-row-name">
              {t(o.role === 'buyer' ? 'c2c.orders.buyFrom' : 'c2c.orders.sellTo', {
                coin: o.coin,
                name: o.role === 'buyer' ? o.merchant_nickname : o.buyer_nickname,
              })}
            </span>
            <span className="c2c-mono">{o.sn}</span>
          </span>
          <StatusBadge label={label} />
          <Icon name="chevron" size={18} className="c2c-chevron" />
        </div>
        <dl className="kv c2c-kv">
          <dt>{t('c2c.order.quantity')}</dt>
          <dd>{formatHolding(o.quantity, o.coin, lang, o.scale)}</dd>
          <dt>{t('c2c.order.amount')}</dt>
          <dd>
            {formatFiat(o.amount, lang)} {o.fiat}
          </dd>
          <dt>{t('c2c.order.createdAt')}</dt>
          <dd>{formatDateTime(o.created_at, lang)}</dd>
        </dl>
        {label === 'paying' ? (
          <p className="c2c-due">
            <Icon name="clock" size={14} />
            <span>{t('c2c.orders.payBy', { time: formatDateTime(o.pay_until, lang) })}</span>
          </p>
        ) : null}
      </Link>
    </li>
  );
}
