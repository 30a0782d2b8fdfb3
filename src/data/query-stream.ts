import { type QueryClient, QueryObserver, type QueryObserverOptions, type QueryKey } from '@tanstack/react-query';
import { distinctUntilChanged, Observable } from 'rxjs';

/**
 * A query's data as a stream, for the live controllers that run outside React (machines/<product>/live.ts): the
 * same cache entry a page's useQuery reads, fetched and refreshed the same way (an invalidation refetches it for
 * both), each new answer once. Nothing until the first answer; a failed refresh keeps the last one.
 */
export function queryData$<T>(
  client: QueryClient,
  options: QueryObserverOptions<T, Error, T, T, QueryKey>,
): Observable<T> {
  return new Observable<T>((subscriber) => {
    const observer = new QueryObserver(client, options);
    const emit = (result: { data: T | undefined }) => {
      if (result.data !== undefined) subscriber.next(result.data);
    };
    const unsubscribe = observer.subscribe(emit);
    emit(observer.getCurrentResult());
    return unsubscribe;
  }).pipe(distinctUntilChanged());
}
