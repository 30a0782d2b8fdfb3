import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { labelOf, stepOf } from '../../../../machines/ieo/steps';
import type { IeoOrder } from '../../../../protocol/ieo';
import { formatCoin } from '../format';
import { StatusBadge } from './Badges';

/** The caller's own subscription on a project's page: its status and quantities, and the way to its page. */
export function MySubscription({ order: o, now }: { order: IeoOrder; now: number }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const coin = (v: string) => `${formatCoin(v, lang)} ${o.coin}`;
  return (
    <section className="card ieo-section" aria-labelledby="ieo-mine-title" data-testid="ieo-mine">
      <div className="ieo-card-head">
        <h2 className="ieo-section-title ieo-grow" id="ieo-mine-title">
          {t('ieo.details.mine')}
        </h2>
        <StatusBadge label={labelOf(stepOf(o, now))} />
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
      </dl>
      <Link to="/pages/assets/ieo/orderDetail" search={{ id: o.id }} className="ieo-link">
        {t('ieo.details.viewOrder')}
      </Link>
    </section>
  );
}
