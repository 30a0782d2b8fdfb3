import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverOrderRef } from '../../../../machines/lever/book.machine';
import type { LeverPosition } from '../../../../protocol/lever';
import { OrderFlow } from '../../../app/OrderFlow';
import { Button } from '../../../components/Button';
import { formatDateTime, formatPrice } from '../../../lib/format';
import { useOrderActor } from '../hooks/useOrderActor';
import { RowHead } from './RowHead';

/** A pending order (status 0: a market order waiting for its entry tick, or a resting limit) with cancel. */
export default function OrderRow({
  actor,
  order,
  priceScale,
}: {
  /** The order's machine in the live book. */
  actor: LeverOrderRef;
  order: LeverPosition;
  priceScale: number;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { view, snapshot, send } = useOrderActor(actor);
  const shown = view.position ?? order;
  return (
    <li className="lever-row card" data-testid={`order-${shown.id}`} data-phase={view.phase}>
      <RowHead position={shown} labelKey={view.labelKey} />
      <dl className="lever-facts">
        <div>
          <dt>{t('lever.row.lots')}</dt>
          <dd>{shown.lots}</dd>
        </div>
        <div>
          <dt>{t('lever.row.limitPrice')}</dt>
          <dd>{shown.limit_price ? formatPrice(shown.limit_price, lang, priceScale) : t('lever.ticket.market')}</dd>
        </div>
        <div>
          <dt>{t('lever.row.created')}</dt>
          <dd>{formatDateTime(shown.created_at, lang)}</dd>
        </div>
      </dl>
      {view.error ? (
        <p className="field-msg field-error" role="alert">
          {view.error}
        </p>
      ) : null}
      {view.phase === 'waiting' || view.phase === 'pending' || view.busy ? (
        <div className="lever-actions">
          <Button
            variant="secondary"
            className="btn-small"
            busy={view.busy}
            disabled={!view.cancelEnabled}
            aria-label={t('lever.row.cancelLabel', { no: shown.order_no })}
            onClick={() => send({ type: 'CANCEL' })}
            data-testid="order-cancel"
          >
            {t('lever.row.cancel')}
          </Button>
        </div>
      ) : null}
      <OrderFlow drawing="lever-order" snapshot={snapshot} title={t('machineChart.title')} />
    </li>
  );
}
