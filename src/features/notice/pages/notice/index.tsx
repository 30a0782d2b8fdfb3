import { useNavigate } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { NEWS_KINDS, type NewsKind } from '../../../../../protocol/news';
import { EmptyState } from '../../../../components/assets/EmptyState';
import { LoadMore } from '../../../../components/assets/LoadMore';
import { Page } from '../../../../components/Page';
import { PullToRefresh } from '../../../../components/PullToRefresh';
import { Segmented } from '../../../../components/Segmented';
import { LoadingOrFailed } from '../../../../components/StateView';
import { useQueryParam } from '../../../../hooks/hooks';
import { NoticeRow } from '../../components/NoticeRow';
import { kindParam, useNotices } from '../../hooks/queries';
import '../../notice.css';

type Tab = NewsKind | 'all';
const TABS: readonly Tab[] = ['all', ...NEWS_KINDS];

/**
 * The notices (notice/index, public): news and announcements newest first, filtered by kind in tabs (the kind lives
 * in the link, `?kind=`, so coming back from a notice shows the same tab), unread ones marked for a logged-in user,
 * older ones with "load more". Pull to refresh reloads the newest page.
 */
export default function NoticesPage(): ReactElement {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const kind = kindParam(useQueryParam('kind'));
  const list = useNotices(kind);
  const show = (tab: Tab) =>
    void navigate({ to: '/pages/notice/index', search: tab === 'all' ? {} : { kind: tab }, replace: true });
  return (
    <Page title={t('notice.title')} className="notice-page">
      <PullToRefresh onRefresh={list.reload}>
        <div className="notice-stack">
          <Segmented
            label={t('notice.tabsLabel')}
            value={kind ?? 'all'}
            options={TABS.map((tab) => ({ value: tab, label: t(`notice.tabs.${tab}`) }))}
            onChange={show}
          />
          {list.state !== 'ready' ? (
            <LoadingOrFailed failed={list.state === 'error'} onRetry={() => void list.reload()} />
          ) : list.items.length === 0 ? (
            <EmptyState icon="info" text={t(`notice.empty.${kind ?? 'all'}`)} />
          ) : (
            <>
              <ul className="notice-list" data-testid="notice-list">
                {list.items.map((n) => (
                  <NoticeRow key={n.id} notice={n} />
                ))}
              </ul>
              <LoadMore hasMore={list.hasMore} busy={list.loadingMore} onMore={() => void list.loadMore()} />
            </>
          )}
        </div>
      </PullToRefresh>
    </Page>
  );
}
