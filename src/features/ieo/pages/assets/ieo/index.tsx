import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { IEO_POLL_LIMIT } from '../../../../../../core/api/ieo';
import { EmptyState } from '../../../../../components/assets/EmptyState';
import { Page } from '../../../../../components/Page';
import { PullToRefresh } from '../../../../../components/PullToRefresh';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { useServerNow } from '../../../../../hooks/useServerNow';
import { IeoLinks } from '../../../components/IeoLinks';
import { OrderRow } from '../../../components/OrderRow';
import { RiskNote } from '../../../components/RiskNote';
import { useIeoLive } from '../../../hooks/useIeoLive';
import { COUNTED_LABELS, countByLabel } from '../../../orders';
import '../../../ieo.css';

/** How many of the newest subscriptions the overview shows. */
const NEWEST = 3;

/**
 * The user's IEO overview (assets/ieo/index): how many subscriptions are in each status, the newest ones (live, each
 * with its own machine), and the ways to all of them and to the projects. Live through the `ieo` stream; pull to
 * refresh asks the server at once.
 */
export default function IeoAssetsPage(): ReactElement {
  const { t } = useTranslation();
  const { stream, orders } = useIeoLive();
  const now = useServerNow();
  return (
    <Page title={t('ieo.assets.title')} className="ieo-page">
      <PullToRefresh onRefresh={() => stream.refresh()}>
        <div className="ieo-stack">
          {orders === null ? (
            <LoadingOrFailed failed={false} onRetry={() => void stream.refresh()} />
          ) : orders.length === 0 ? (
            <EmptyState icon="star" text={t('ieo.assets.empty')}>
              <Link to="/pages/publication/index" className="btn btn-secondary">
                <span className="btn-label">{t('ieo.links.projects')}</span>
              </Link>
            </EmptyState>
          ) : (
            <>
              <section className="card ieo-section" aria-labelledby="ieo-counts-title" data-testid="ieo-counts">
                <h2 className="ieo-section-title" id="ieo-counts-title">
                  {t('ieo.assets.counts')}
                </h2>
                <ul className="ieo-counts">
                  {[...countByLabel(orders, now)]
                    .filter(([label, n]) => n > 0 || COUNTED_LABELS.slice(0, 5).includes(label))
                    .map(([label, n]) => (
                      <li key={label} className={`ieo-count ieo-count-${label}`} data-label={label}>
                        <span className="ieo-count-value">{n}</span>
                        <span className="ieo-count-label">{t(`ieo.label.${label}`)}</span>
                      </li>
                    ))}
                </ul>
                {orders.length >= IEO_POLL_LIMIT ? (
                  <p className="ieo-muted ieo-flat">{t('ieo.assets.countsNote', { count: IEO_POLL_LIMIT })}</p>
                ) : null}
              </section>
              <section className="ieo-stack" aria-labelledby="ieo-newest-title">
                <h2 className="ieo-section-title" id="ieo-newest-title">
                  {t('ieo.assets.newest')}
                </h2>
                <ul className="ieo-cards">
                  {orders.slice(0, NEWEST).map((o) => (
                    <OrderRow key={o.id} order={o} stream={stream} now={now} />
                  ))}
                </ul>
              </section>
            </>
          )}
          <IeoLinks show={['orders', 'projects']} />
          <RiskNote />
        </div>
      </PullToRefresh>
    </Page>
  );
}
