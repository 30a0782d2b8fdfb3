import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { IeoOrder } from '../../../../protocol/ieo';
import { formatDateTime } from '../../../lib/format';
import { formatCoin, formatMoney } from '../format';

/** SPEC 3 "IEO order": every field of the subscription, as the server sent it. */
export function OrderFacts({ order: o }: { order: IeoOrder }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const coin = (v: string | null) => (v === null ? t('ieo.order.none') : `${formatCoin(v, lang)} ${o.coin}`);
  const usdt = (v: string | null) => (v === null ? t('ieo.order.none') : `${formatMoney(v, lang)} USDT`);
  const time = (ms: number) => formatDateTime(ms, lang);
  return (
    <section className="card ieo-section" aria-labelledby="ieo-order-facts" data-testid="ieo-order-facts">
      <h2 className="ieo-section-title" id="ieo-order-facts">
        {t('ieo.order.facts')}
      </h2>
      <dl className="kv ieo-kv">
        <dt>{t('ieo.order.sn')}</dt>
        <dd className="ieo-mono">{o.sn}</dd>
        <dt>{t('ieo.order.name')}</dt>
        <dd>
          {o.name} ({o.coin})
        </dd>
        <dt>{t('ieo.order.ipoStatus')}</dt>
        <dd data-testid="ieo-ipo-status">
          {o.ipo_status} · {t(`ieo.ipoStatus.${o.ipo_status}`)}
        </dd>
        <dt>{t('ieo.order.quantity')}</dt>
        <dd>{coin(o.quantity)}</dd>
        <dt>{t('ieo.order.allotmentQuantity')}</dt>
        <dd data-testid="ieo-allotment">{coin(o.allotment_quantity)}</dd>
        <dt>{t('ieo.order.pendingQuantity')}</dt>
        <dd>{coin(o.pending_quantity)}</dd>
        <dt>{t('ieo.order.payment')}</dt>
        <dd>{usdt(o.payment)}</dd>
        <dt>{t('ieo.order.successPay')}</dt>
        <dd data-testid="ieo-success-pay">{usdt(o.success_pay)}</dd>
        <dt>{t('ieo.order.ieoPrice')}</dt>
        <dd>{usdt(o.ieo_price)}</dd>
        <dt>{t('ieo.order.listingPrice')}</dt>
        <dd>{usdt(o.listing_price)}</dd>
        <dt>{t('ieo.order.totalSupply')}</dt>
        <dd>{coin(o.total_supply)}</dd>
        <dt>{t('ieo.order.circulatingSupply')}</dt>
        <dd>{coin(o.circulating_supply)}</dd>
        <dt>{t('ieo.order.applyTime')}</dt>
        <dd>{time(o.apply_time)}</dd>
        <dt>{t('ieo.order.allotmentDate')}</dt>
        <dd>{time(o.allotment_date)}</dd>
        <dt>{t('ieo.order.payDate')}</dt>
        <dd>{time(o.pay_date)}</dd>
        <dt>{t('ieo.order.listingDate')}</dt>
        <dd>{time(o.listing_date)}</dd>
        <dt>{t('ieo.order.lockDate')}</dt>
        <dd>{time(o.lock_date)}</dd>
      </dl>
      {o.description ? (
        <>
          <h3 className="ieo-subtitle">{t('ieo.order.description')}</h3>
          <p className="ieo-text">{o.description}</p>
        </>
      ) : null}
    </section>
  );
}
