import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { IeoDetail } from '../../../../../protocol/ieo';
import { EmptyState } from '../../../../components/assets/EmptyState';
import { Icon } from '../../../../components/Icon';
import { Page } from '../../../../components/Page';
import { PullToRefresh } from '../../../../components/PullToRefresh';
import { LoadingOrFailed } from '../../../../components/StateView';
import { loadFailed } from '../../../../data/query';
import { useQueryParam } from '../../../../hooks/hooks';
import { useServerNow } from '../../../../hooks/useServerNow';
import { formatDateTime } from '../../../../lib/format';
import { isLoggedIn, session } from '../../../../state/session';
import { AllotmentRule } from '../../components/AllotmentRule';
import { ProjectStateBadge } from '../../components/Badges';
import { Countdown } from '../../components/Countdown';
import { MySubscription } from '../../components/MySubscription';
import { ProjectFacts } from '../../components/ProjectFacts';
import { ProjectHead } from '../../components/ProjectHead';
import { RiskNote } from '../../components/RiskNote';
import { SubscribedShare } from '../../components/SubscribedShare';
import { recordId, useIeoDetail } from '../../hooks/queries';
import { projectStateAt } from '../../terms';
import '../../ieo.css';

/**
 * One project (publication/details?id=, public): its description, prices and supplies, every time of its life, the
 * allotment rule in plain words and the risk note; the caller's own subscription when logged in, and Subscribe
 * while the window is open.
 */
export default function PublicationDetailsPage(): ReactElement {
  const { t } = useTranslation();
  const id = recordId(useQueryParam('id'));
  const detail = useIeoDetail(id);
  const refresh = () => detail.refetch();
  return (
    <Page title={t('ieo.details.title')} className="ieo-page">
      {id === null ? (
        <EmptyState icon="alert" text={t('ieo.details.notFound')} />
      ) : !detail.data ? (
        <LoadingOrFailed failed={loadFailed(detail)} onRetry={() => void detail.refetch()} />
      ) : (
        <PullToRefresh onRefresh={refresh}>
          <ProjectView detail={detail.data} />
        </PullToRefresh>
      )}
    </Page>
  );
}

function ProjectView({ detail }: { detail: IeoDetail }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const loggedIn = isLoggedIn(useSnapshot(session));
  const now = useServerNow();
  const { project: p, order } = detail;
  const state = projectStateAt(p, now);
  return (
    <div className="ieo-stack">
      <section className="card ieo-section" data-testid="ieo-project">
        <ProjectHead project={p}>
          <ProjectStateBadge state={state} />
        </ProjectHead>
        <SubscribedShare project={p} />
        {state === 'upcoming' ? (
          <p className="ieo-window">
            <Icon name="clock" size={14} />
            <span>
              {t('ieo.details.opensAt', { time: formatDateTime(p.starts_at, lang) })} ·{' '}
              <Countdown ms={p.starts_at - now} />
            </span>
          </p>
        ) : state === 'subscribing' ? (
          <p className="ieo-window">
            <Icon name="clock" size={14} />
            <span>
              {t('ieo.details.closesAt', { time: formatDateTime(p.ends_at, lang) })} ·{' '}
              <Countdown ms={p.ends_at - now} />
            </span>
          </p>
        ) : (
          <p className="ieo-window">
            <Icon name="clock" size={14} />
            <span>{t('ieo.details.closedAt', { time: formatDateTime(p.ends_at, lang) })}</span>
          </p>
        )}
        {state === 'subscribing' && !order ? (
          <Link
            to="/pages/publication/purchase"
            search={{ id: p.id }}
            className="btn btn-primary btn-block"
            data-testid="ieo-subscribe"
          >
            <span className="btn-label">{t('ieo.details.subscribe')}</span>
          </Link>
        ) : null}
      </section>
      {loggedIn && order ? <MySubscription order={order} now={now} /> : null}
      {p.description ? (
        <section className="card ieo-section" aria-labelledby="ieo-about-title">
          <h2 className="ieo-section-title" id="ieo-about-title">
            {t('ieo.details.about')}
          </h2>
          <p className="ieo-text">{p.description}</p>
        </section>
      ) : null}
      <ProjectFacts project={p} />
      <AllotmentRule />
      <RiskNote />
    </div>
  );
}
