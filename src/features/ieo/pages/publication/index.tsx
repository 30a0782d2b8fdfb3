import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { fetchIeoProjects } from '../../../../../core/api/ieo';
import { EmptyState } from '../../../../components/assets/EmptyState';
import { LoadMore } from '../../../../components/assets/LoadMore';
import { ListGroup, ListItem } from '../../../../components/List';
import { Page } from '../../../../components/Page';
import { PullToRefresh } from '../../../../components/PullToRefresh';
import { LoadingOrFailed } from '../../../../components/StateView';
import { usePagedList } from '../../../../data/usePagedList';
import { useServerNow } from '../../../../hooks/useServerNow';
import { isLoggedIn, session } from '../../../../state/session';
import { IeoLinks } from '../../components/IeoLinks';
import { ProjectCard } from '../../components/ProjectCard';
import { RiskNote } from '../../components/RiskNote';
import { ieoKeys } from '../../keys';
import '../../ieo.css';

/**
 * The new-coin projects (publication/index, public): each with its coin, prices, supply, what was subscribed so far
 * and its state and window, newest first with "load more"; pull to refresh reloads them. Logged-in users also get
 * the ways to their own subscriptions.
 */
export default function PublicationPage(): ReactElement {
  const { t } = useTranslation();
  const loggedIn = isLoggedIn(useSnapshot(session));
  // The states move on with the windows' times while the page is open.
  const now = useServerNow(true, 5_000);
  const list = usePagedList(ieoKeys.projects, async (beforeId) => {
    const page = await fetchIeoProjects(beforeId);
    return page === false ? false : { items: page.projects, next_before_id: page.next_before_id };
  });

  return (
    <Page title={t('ieo.title')} className="ieo-page">
      <PullToRefresh onRefresh={list.reload}>
        <div className="ieo-stack">
          <p className="ieo-intro">{t('ieo.list.intro')}</p>
          {list.state !== 'ready' ? (
            <LoadingOrFailed failed={list.state === 'error'} onRetry={() => void list.reload()} />
          ) : list.items.length === 0 ? (
            <EmptyState icon="star" text={t('ieo.list.empty')} />
          ) : (
            <>
              <ul className="ieo-cards" data-testid="ieo-projects">
                {list.items.map((p) => (
                  <ProjectCard key={p.id} project={p} now={now} />
                ))}
              </ul>
              <LoadMore hasMore={list.hasMore} busy={list.loadingMore} onMore={() => void list.loadMore()} />
            </>
          )}
          {loggedIn ? <IeoLinks show={['overview', 'orders']} /> : null}
          <ListGroup>
            <ListItem icon="pulse" label={t('ieo.links.vote')} to="/pages/publication/vote" />
          </ListGroup>
          <RiskNote />
        </div>
      </PullToRefresh>
    </Page>
  );
}
