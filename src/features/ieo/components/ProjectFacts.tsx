import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { IeoProject } from '../../../../protocol/ieo';
import { formatDateTime } from '../../../lib/format';
import { formatCoin, formatMoney } from '../format';

/** A project's prices and supplies, and every time of its life (details page). */
export function ProjectFacts({ project: p }: { project: IeoProject }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const coin = (v: string) => `${formatCoin(v, lang)} ${p.coin}`;
  const usdt = (v: string) => `${formatMoney(v, lang)} ${p.pay_currency}`;
  const time = (ms: number) => formatDateTime(ms, lang);
  return (
    <>
      <section className="card ieo-section" aria-labelledby="ieo-facts-title">
        <h2 className="ieo-section-title" id="ieo-facts-title">
          {t('ieo.details.facts')}
        </h2>
        <dl className="kv ieo-kv">
          <dt>{t('ieo.project.ieoPrice')}</dt>
          <dd data-testid="ieo-price">{usdt(p.ieo_price)}</dd>
          <dt>{t('ieo.project.listingPrice')}</dt>
          <dd>{usdt(p.listing_price)}</dd>
          <dt>{t('ieo.project.supply')}</dt>
          <dd>{coin(p.supply)}</dd>
          <dt>{t('ieo.project.cap')}</dt>
          <dd data-testid="ieo-cap">{coin(p.user_cap)}</dd>
          <dt>{t('ieo.project.totalSupply')}</dt>
          <dd>{coin(p.total_supply)}</dd>
          <dt>{t('ieo.project.circulatingSupply')}</dt>
          <dd>{coin(p.circulating_supply)}</dd>
        </dl>
      </section>
      <section className="card ieo-section" aria-labelledby="ieo-times-title">
        <h2 className="ieo-section-title" id="ieo-times-title">
          {t('ieo.details.times')}
        </h2>
        <dl className="kv ieo-kv ieo-kv-times">
          <dt>{t('ieo.project.windowOpens')}</dt>
          <dd>{time(p.starts_at)}</dd>
          <dt>{t('ieo.project.windowCloses')}</dt>
          <dd>{time(p.ends_at)}</dd>
          <dt>{t('ieo.project.allotAt')}</dt>
          <dd>{time(p.allot_at)}</dd>
          <dt>{t('ieo.project.payUntil')}</dt>
          <dd>{time(p.pay_until)}</dd>
          <dt>{t('ieo.project.listAt')}</dt>
          <dd>{time(p.list_at)}</dd>
          <dt>{t('ieo.project.unlockAt')}</dt>
          <dd>{time(p.unlock_at)}</dd>
        </dl>
      </section>
    </>
  );
}
