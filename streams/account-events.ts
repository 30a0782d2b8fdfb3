import { filter, map, merge, type Observable, pairwise, share } from 'rxjs';
import {
  ACCOUNT_EVENT,
  type AccountEvent,
  accountEvent,
  type VerificationLevel,
  type VerificationState,
  verificationEventData,
} from '../protocol/identity';
import { type ConnectionState, realtime } from './socket';

/**
 * The logged-in user's private events (`account` on the socket, sent to the user's room only): a verification
 * reviewed, later deposits and withdrawals. Malformed messages are dropped.
 */

/** What this stream needs of the tab's socket (RealtimeSocket, or a fake in tests). */
export interface AccountEventSource {
  event(name: string): Observable<unknown>;
  readonly state$: Observable<ConnectionState>;
}

export function accountEvents(source: AccountEventSource = realtime()): Observable<AccountEvent> {
  return source.event(ACCOUNT_EVENT).pipe(
    map((raw) => accountEvent.safeParse(raw)),
    filter((r) => r.success),
    map((r) => r.data),
    share(),
  );
}

export type VerificationChange =
  | { kind: 'changed'; level: VerificationLevel; state: VerificationState; reason: string | null }
  /** The socket came back: events may have been missed, read the state again. */
  | { kind: 'resync' };

/** Verification state changes, plus a resync after every reconnect (events are not replayed). */
export function verificationChanges(source: AccountEventSource = realtime()): Observable<VerificationChange> {
  const changed = accountEvents(source).pipe(
    filter((e) => e.kind === 'verification'),
    map((e) => verificationEventData.safeParse(e.data)),
    filter((r) => r.success),
    map((r): VerificationChange => ({ kind: 'changed', ...r.data })),
  );
  const resync = source.state$.pipe(
    pairwise(),
    filter(([before, now]) => now === 'connected' && before !== 'connected'),
    map((): VerificationChange => ({ kind: 'resync' })),
  );
  return merge(changed, resync);
}
