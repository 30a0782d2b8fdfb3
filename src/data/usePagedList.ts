import { type InfiniteData, type QueryKey, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { need } from './query';

/** A page and where the next one starts (`before_id` numbers, or another cursor such as news/list's string). */
export interface Paged<T, C = number> {
  items: T[];
  next_before_id: C | null;
}

export interface PagedList<T> {
  items: T[];
  /** loading: the first page is on its way; error: it failed (nothing to show); ready: items are current. */
  state: 'loading' | 'ready' | 'error';
  hasMore: boolean;
  loadingMore: boolean;
  /** Loads the first page again (pull-to-refresh); resolves when it is shown. */
  reload: () => Promise<void>;
  loadMore: () => Promise<void>;
}

/**
 * A newest-first list paged by cursor (`before_id`), as an infinite query under `queryKey`: another key (another
 * filter) is another list, a socket event that invalidates the key refreshes it. A refresh that fails keeps the list
 * shown; an answer that arrives after a newer refresh is dropped by the query layer.
 */
export function usePagedList<T, C = number>(
  queryKey: QueryKey,
  fetchPage: (beforeId: C | null) => Promise<Paged<T, C> | false>,
): PagedList<T> {
  const client = useQueryClient();
  const q = useInfiniteQuery({
    queryKey,
    // The page params are this list's own: null, then each page's next_before_id.
    queryFn: ({ pageParam }) => need(fetchPage(pageParam as C | null)),
    initialPageParam: null as C | null,
    getNextPageParam: (last) => last.next_before_id,
  });
  const { data, refetch, fetchNextPage, hasNextPage, isFetchingNextPage, isError } = q;

  const reload = useCallback(async () => {
    // A refresh starts over from the newest page, as the first load did (older pages come with "load more").
    client.setQueryData<InfiniteData<Paged<T, C>, C | null>>(queryKey, (old) =>
      old ? { pages: old.pages.slice(0, 1), pageParams: old.pageParams.slice(0, 1) } : old,
    );
    await refetch();
  }, [client, queryKey, refetch]);

  const loadMore = useCallback(async () => {
    if (!hasNextPage || isFetchingNextPage) return;
    await fetchNextPage();
  }, [fetchNextPage, hasNextPage, isFetchingNextPage]);

  const items = useMemo(() => data?.pages.flatMap((p) => p.items) ?? [], [data]);
  return {
    items,
    state: data ? 'ready' : isError ? 'error' : 'loading',
    hasMore: hasNextPage,
    loadingMore: isFetchingNextPage,
    reload,
    loadMore,
  };
}
