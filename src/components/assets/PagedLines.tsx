import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../Button';
import { Spinner } from '../Controls';
import type { IconName } from '../Icon';
import { EmptyState } from './EmptyState';
import { LoadMore } from './LoadMore';

/** What a paged list looks like from outside (src/data/usePagedList gives it); props only, no fetching here. */
export interface PagedLinesList {
  state: 'loading' | 'ready' | 'error';
  itemCount: number;
  hasMore: boolean;
  loadingMore: boolean;
  reload: () => Promise<void>;
  loadMore: () => Promise<void>;
}

/**
 * A newest-first list of asset lines with its states: a spinner for the first page, a retry when it failed, an empty
 * state, then the lines (`children`, the `<li>` rows) and "load more".
 */
export function PagedLines({
  list,
  empty,
  children,
}: {
  list: PagedLinesList;
  empty: { icon: IconName; text: string };
  children: ReactNode;
}): ReactElement {
  const { t } = useTranslation();
  if (list.state === 'loading') {
    return (
      <div className="center">
        <Spinner label={t('common.loading')} />
      </div>
    );
  }
  if (list.state === 'error') {
    return (
      <EmptyState icon="alert" text={t('common.loadFailed')}>
        <Button variant="secondary" onClick={() => void list.reload()}>
          {t('common.retry')}
        </Button>
      </EmptyState>
    );
  }
  if (list.itemCount === 0) return <EmptyState icon={empty.icon} text={empty.text} />;
  return (
    <>
      <ul className="line-list">{children}</ul>
      <LoadMore hasMore={list.hasMore} busy={list.loadingMore} onMore={() => void list.loadMore()} />
    </>
  );
}
