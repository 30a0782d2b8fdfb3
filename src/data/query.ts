import { QueryClient, type UseQueryResult } from '@tanstack/react-query';
import { onClearCache } from '../state/storage';

/**
 * The one fetching layer for request/response data (DESIGN "Choices already made"): TanStack Query, invalidated by
 * socket events (src/data/account-events.ts). core/api answers `false` after it has told the user what went wrong
 * (SPEC 7 toast, or the logout on 999); `need` turns that into a failed query. Failed calls are not retried by the
 * query layer (the user has been told and offered a retry button), and nothing refetches behind the user's back on
 * window focus: the socket says when data changed.
 */

/** A call that failed; the client has already told the user. */
export class LoadFailed extends Error {
  override name = 'LoadFailed';
  constructor() {
    super('load failed');
  }
}

/** The data of a core/api call, or a LoadFailed rejection when it answered false. */
export async function need<T>(call: Promise<T | false>): Promise<T> {
  const r = await call;
  if (r === false) throw new LoadFailed();
  return r;
}

/** A first load that failed and is not being tried again right now: the page shows its retry view. */
export const loadFailed = (q: Pick<UseQueryResult, 'isError' | 'isFetching'>): boolean => q.isError && !q.isFetching;

/** Keys of data that belongs to no user (kept across logins): instruments, calling codes. */
export const PUBLIC_KEY = 'public' as const;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
      mutations: { retry: false },
    },
  });
}

/**
 * How long a page's first data, asked for beside its code (feature.ts `prefetch`), counts as fresh: the page that
 * mounts right after it takes the answer instead of asking again. Short, so a page opened again later still asks
 * (a balance changed elsewhere shows at once); invalidations refresh it at any time.
 */
export const PREFETCHED_FRESH_MS = 3_000;

/** The tab's query client (src/main.tsx provides it). */
export const queryClient: QueryClient = createQueryClient();

/** Forgets the previous user's data that no view shows (after login, logout or a dead session). */
export function forgetUserData(client: QueryClient = queryClient): void {
  client.removeQueries({ predicate: (q) => q.queryKey[0] !== PUBLIC_KEY && q.getObserversCount() === 0 });
}

// "Clear cache" (settings) also forgets the data kept for the page's life, so it is fetched again.
onClearCache(() => queryClient.removeQueries({ queryKey: [PUBLIC_KEY] }));
