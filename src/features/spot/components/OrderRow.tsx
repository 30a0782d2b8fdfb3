import { type ReactElement, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SpotOrder } from '../../../../protocol/spot';
import { Button } from '../../../components/Button';
import { formatPrice, formatQuantity, formatUsdt } from '../../../lib/figures';
import { formatDateTime } from '../../../lib/format';
import { FillDetail } from './FillDetail';

/** One order: side and type, what was asked, its state (SPEC 4: waiting shows as pending), cancel or fill detail. */
export function OrderRow({
  order,
  onCancel,
  cancelling,
  error,
  children,
}: {
  order: SpotOrder;
  onCancel?: (order: SpotOrder) => void;
  cancelling?: boolean;
  /** Why the last action on it failed (a refused cancel), in the user's language. */
  error?: string | null;
  /** Shown at the end of the row (the order's flow, when shown). */
  children?: ReactNode;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [open, setOpen] = useState(false);
  const type = order.type === 'limit' ? t('spot.limit') : t('spot.market');
  const sideClass = order.side === 'buy' ? 'change-up' : 'change-down';
  return (
    <li className="spot-order card" data-testid={`order-${order.id}`} data-state={order.state}>
      <div className="spot-order-head">
        <span className={`spot-order-side ${sideClass}`}>
          {order.side === 'buy' ? t('spot.orders.buyAt', { type }) : t('spot.orders.sellAt', { type })}
        </span>
        <span className="spot-order-symbol">{order.symbol}/USDT</span>
        <span className={`spot-badge is-${order.state}`}>{t(`spot.state.${order.state}`)}</span>
      </div>
      <dl className="spot-facts spot-facts-row">
        {order.qty !== null ? (
          <div>
            <dt>{t('spot.orders.qty')}</dt>
            <dd>{formatQuantity(order.qty, order.symbol, lang, 8)}</dd>
          </div>
        ) : null}
        {order.amount !== null ? (
          <div>
            <dt>{t('spot.orders.amount')}</dt>
            <dd>{formatUsdt(order.amount, lang)}</dd>
          </div>
        ) : null}
        {order.price !== null ? (
          <div>
            <dt>{t('spot.orders.limitPrice')}</dt>
            <dd>{formatPrice(order.price, lang, order.price.split('.')[1]?.length ?? 0)} USDT</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('spot.orders.time')}</dt>
          <dd>{formatDateTime(order.created_at, lang)}</dd>
        </div>
      </dl>
      {order.state === 'cancelled' && order.cancel_reason ? (
        <p className="spot-muted">{t(`spot.cancelReason.${order.cancel_reason}`)}</p>
      ) : null}
      {error ? (
        <p className="field-msg field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="spot-order-actions">
        {onCancel && order.state === 'pending' ? (
          <Button
            variant="secondary"
            className="btn-small"
            busy={cancelling}
            aria-label={t('spot.orders.cancelOrder', { id: order.id })}
            onClick={() => onCancel(order)}
          >
            {t('spot.orders.cancel')}
          </Button>
        ) : null}
        {order.state === 'completed' ? (
          <button type="button" className="spot-link" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
            {t('spot.orders.details')}
          </button>
        ) : null}
      </div>
      {open ? <FillDetail order={order} /> : null}
      {children}
    </li>
  );
}
