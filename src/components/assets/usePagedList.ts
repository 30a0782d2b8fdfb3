import { useCallback, useEffect, useRef, useState } from 'react';

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
 * A newest-first list paged by cursor (`before_id`). `fetchPage` must be stable (useCallback): a new one (other
 * filter) starts over. Answers that arrive after a newer reload are dropped, so a slow page never overwrites a
 * fresher list.
 */
export function usePagedList<T>(fetchPage: (beforeId: number | null) => Promise<Paged<T> | false>): PagedList<T> {
  const [items, setItems] = useState<T[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [state, setState] = useState<PagedList<T>['state']>('loading');
  const [loadingMore, setLoadingMore] = useState(false);
  const generation = useRef(0);
  const busyMore = useRef(false);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    const page = await fetchPage(null);
    if (mine !== generation.current) return;
    if (page === false) {
      setState((s) => (s === 'loading' ? 'error' : s));
      return;
    }
    setItems(page.items);
    setNext(page.next_before_id);
    setState('ready');
  }, [fetchPage]);

  useEffect(() => {
    setState('loading');
    setItems([]);
    setNext(null);
    void reload();
  }, [reload]);

  const loadMore = useCallback(async () => {
    if (next === null || busyMore.current) return;
    busyMore.current = true;
    setLoadingMore(true);
    const mine = generation.current;
    const page = await fetchPage(next);
    busyMore.current = false;
    setLoadingMore(false);
    if (mine !== generation.current || page === false) return;
    setItems((prev) => [...prev, ...page.items]);
    setNext(page.next_before_id);
  }, [fetchPage, next]);

  return { items, state, hasMore: next !== null, loadingMore, reload, loadMore };
}
