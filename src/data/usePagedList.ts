import { type InfiniteData, type QueryKey, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { need } from './query';

export interface Paged<T> {
  items: T[];
  next_before_id: number | null;
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
export function usePagedList<T>(
  queryKey: QueryKey,
  fetchPage: (beforeId: number | null) => Promise<Paged<T> | false>,
): PagedList<T> {
  const client = useQueryClient();
  const q = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => need(fetchPage(pageParam)),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_before_id,
  });
  const { data, refetch, fetchNextPage, hasNextPage, isFetchingNextPage, isError } = q;

  const reload = useCallback(async () => {
    // A refresh starts over from the newest page, as the first load did (older pages come with "load more").
    client.setQueryData<InfiniteData<Paged<T>, number | null>>(queryKey, (old) =>
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
