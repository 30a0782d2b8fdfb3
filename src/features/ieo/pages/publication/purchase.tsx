import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { IeoDetail } from '../../../../../protocol/ieo';
import { EmptyState } from '../../../../components/assets/EmptyState';
import { Icon } from '../../../../components/Icon';
import { Page } from '../../../../components/Page';
import { LoadingOrFailed } from '../../../../components/StateView';
import { loadFailed } from '../../../../data/query';
import { useQueryParam } from '../../../../hooks/hooks';
import { useServerNow } from '../../../../hooks/useServerNow';
import { formatDateTime } from '../../../../lib/format';
import { Countdown } from '../../components/Countdown';
import { PurchaseForm } from '../../components/PurchaseForm';
import { RiskNote } from '../../components/RiskNote';
import { formatCoin, formatMoney } from '../../format';
import { recordId, useIeoDetail } from '../../hooks/queries';
import { projectStateAt } from '../../terms';
import '../../ieo.css';
import { ProjectHead } from '../../components/ProjectHead';

/**
 * Subscribing to a project (publication/purchase?id=, login required): the project's price, cap and window, the
 * quantity with the cost if fully allotted, Subscribe. A user who has subscribed already is sent to their order.
 */
export default function PublicationPurchasePage(): ReactElement {
  const { t } = useTranslation();
  const id = recordId(useQueryParam('id'));
  const detail = useIeoDetail(id);
  return (
    <Page title={t('ieo.purchase.title')} className="ieo-page">
      {id === null ? (
        <EmptyState icon="alert" text={t('ieo.details.notFound')} />
      ) : !detail.data ? (
        <LoadingOrFailed failed={loadFailed(detail)} onRetry={() => void detail.refetch()} />
      ) : (
        <Purchase detail={detail.data} />
      )}
    </Page>
  );
}

function Purchase({ detail }: { detail: IeoDetail }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const now = useServerNow();
  const { project: p, order } = detail;
  const open = projectStateAt(p, now) === 'subscribing';
  return (
    <div className="ieo-stack">
      <section className="card ieo-section" data-testid="ieo-purchase-project">
        <ProjectHead project={p} />
        <dl className="kv ieo-kv">
          <dt>{t('ieo.project.ieoPrice')}</dt>
          <dd>{formatMoney(p.ieo_price, lang)} USDT</dd>
          <dt>{t('ieo.project.cap')}</dt>
          <dd>
            {formatCoin(p.user_cap, lang)} {p.coin}
          </dd>
          <dt>{t('ieo.project.allotAt')}</dt>
          <dd>{formatDateTime(p.allot_at, lang)}</dd>
        </dl>
        {open ? (
          <p className="ieo-window">
            <Icon name="clock" size={14} />
            <span>
              {t('ieo.details.closesAt', { time: formatDateTime(p.ends_at, lang) })} ·{' '}
              <Countdown ms={p.ends_at - now} />
            </span>
          </p>
        ) : null}
      </section>
      {order ? (
        <EmptyState icon="check" text={t('ieo.purchase.already')}>
          <Link to="/pages/assets/ieo/orderDetail" search={{ id: order.id }} className="btn btn-secondary">
            <span className="btn-label">{t('ieo.details.viewOrder')}</span>
          </Link>
        </EmptyState>
      ) : !open ? (
        <EmptyState icon="clock" text={t('ieo.purchase.notOpen')}>
          <Link to="/pages/publication/details" search={{ id: p.id }} className="btn btn-secondary">
            <span className="btn-label">{t('ieo.purchase.back')}</span>
          </Link>
        </EmptyState>
      ) : (
        <PurchaseForm key={p.id} project={p} />
      )}
      <p className="ieo-muted ieo-flat">
        <Link to="/pages/publication/details" search={{ id: p.id }} className="ieo-link">
          {t('ieo.purchase.readRule')}
        </Link>
      </p>
      <RiskNote />
    </div>
  );
}
