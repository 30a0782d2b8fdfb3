import { catchError, exhaustMap, filter, from, type Observable, of, switchMap, timer } from 'rxjs';
import type { ConnectionState } from './socket';

/** Polling beside the socket: often while it is down (the only source), rarely while up (a safety net). */
export const POLL_WHILE_DOWN_MS = 2_000;
export const POLL_WHILE_UP_MS = 30_000;

/**
 * Results of `poll`, at once and then at the cadence the connection state calls for; a poll still running is not
 * overlapped, and a failed one (false or thrown) is skipped, the next comes on schedule.
 */
export function pollBesideSocket<T>(
  state$: Observable<ConnectionState>,
  poll: () => Promise<T | false>,
  cadence: { whileUpMs?: number; whileDownMs?: number } = {},
): Observable<T> {
  return state$.pipe(
    switchMap((state) =>
      timer(
        0,
        state === 'connected' ? (cadence.whileUpMs ?? POLL_WHILE_UP_MS) : (cadence.whileDownMs ?? POLL_WHILE_DOWN_MS),
      ),
    ),
    exhaustMap(() => from(poll()).pipe(catchError(() => of(false as const)))),
    filter((result): result is T => result !== false),
  );
}
