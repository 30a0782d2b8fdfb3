import { filter, map, merge, type Observable, pairwise, share } from 'rxjs';
import { DEPOSIT_EVENT, fundingEventData, WITHDRAWAL_EVENT } from '../protocol/funding';
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

/** One value each time the socket comes back after being down (events sent meanwhile are lost: read again). */
export function reconnects(source: Pick<AccountEventSource, 'state$'>): Observable<{ kind: 'resync' }> {
  return source.state$.pipe(
    pairwise(),
    filter(([before, now]) => now === 'connected' && before !== 'connected'),
    map(() => ({ kind: 'resync' as const })),
  );
}

/** Verification state changes, plus a resync after every reconnect (events are not replayed). */
export function verificationChanges(source: AccountEventSource = realtime()): Observable<VerificationChange> {
  const changed = accountEvents(source).pipe(
    filter((e) => e.kind === 'verification'),
    map((e) => verificationEventData.safeParse(e.data)),
    filter((r) => r.success),
    map((r): VerificationChange => ({ kind: 'changed', ...r.data })),
  );
  return merge(changed, reconnects(source));
}

export type FundingChange = { kind: 'deposit' | 'withdrawal'; id: number } | { kind: 'resync' };

/**
 * One of the user's deposits or withdrawals changed state (reviewed, credited, paid out), plus a resync after every
 * reconnect (events are not replayed).
 */
export function fundingChanges(source: AccountEventSource = realtime()): Observable<FundingChange> {
  const changed = accountEvents(source).pipe(
    filter((e) => e.kind === DEPOSIT_EVENT || e.kind === WITHDRAWAL_EVENT),
    map((e) => ({ kind: e.kind as 'deposit' | 'withdrawal', parsed: fundingEventData.safeParse(e.data) })),
    filter((e) => e.parsed.success),
    map((e): FundingChange => ({ kind: e.kind, id: e.parsed.data?.id ?? 0 })),
  );
  return merge(changed, reconnects(source));
}
