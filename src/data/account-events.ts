import type { QueryClient } from '@tanstack/react-query';
import { filter, merge } from 'rxjs';
import { ALERT_FIRED_EVENT, NEW_SIGN_IN_EVENT, SESSION_ENDED_EVENT } from '../../protocol/account-events';
import {
  type AccountEventSource,
  accountEvents,
  type FundingChange,
  fundingChanges,
  type VerificationChange,
  verificationChanges,
} from '../../streams/account-events';
import { realtime } from '../../streams/socket';
import { keys } from './keys';
import { queryClient } from './query';

/**
 * Socket events make queries stale instead of pages refreshing by hand (DESIGN "Choices already made"): the user's
 * private `account` events (a verification reviewed, a deposit or withdrawal changed state, a price alert fired)
 * invalidate the data they change, and a reconnect invalidates all of it, because events sent while the socket was down are not replayed.
 * Views showing that data refetch at once; the rest refetch when next shown.
 */
export function invalidationsFor(change: FundingChange | VerificationChange): (readonly unknown[])[] {
  switch (change.kind) {
    case 'changed':
      return [keys.verification];
    case 'deposit':
      return [keys.deposits, keys.assetLists];
    case 'withdrawal':
      return [keys.withdrawals, keys.withdrawal(change.id), keys.withdrawInfo(), keys.assetLists];
    case 'resync':
      return [keys.verification, keys.deposits, keys.withdrawals, keys.withdrawal(), keys.withdrawInfo(), keys.assetLists];
  }
}

/** Follows the account events of `source` until the returned function is called. */
export function invalidateOnAccountEvents(
  client: QueryClient = queryClient,
  source: AccountEventSource = realtime(),
): () => void {
  const changes = merge(
    fundingChanges(source),
    // fundingChanges already signals each reconnect once.
    verificationChanges(source).pipe(filter((c) => c.kind === 'changed')),
  );
  const sub = changes.subscribe((change) => {
    for (const queryKey of invalidationsFor(change)) void client.invalidateQueries({ queryKey });
  });
  // A price alert that fired, wherever the user is: its notice (which also refreshes the alerts list), its strings and
  // the system notification load with the first one, so no route carries them (src/features/alerts/notice.ts).
  sub.add(
    accountEvents(source)
      .pipe(filter((e) => e.kind === ALERT_FIRED_EVENT))
      .subscribe((e) => void import('../features/alerts/notice').then((m) => m.alertFired(e.data))),
  );
  // A session of the user ended from another device: this one checks whether it was its own (then it is signed out at
  // once) and refreshes the list of devices; a sign-in from a new device is told (src/features/account/account-notices.ts,
  // loaded with the first such event).
  sub.add(
    accountEvents(source)
      .pipe(filter((e) => e.kind === SESSION_ENDED_EVENT || e.kind === NEW_SIGN_IN_EVENT))
      .subscribe(
        (e) =>
          void import('../features/account/account-notices')
            .then((m) => (e.kind === SESSION_ENDED_EVENT ? m.sessionEnded(client) : m.newSignIn(client, e.data)))
            // Offline or a chunk that did not load: the next request or event does the same.
            .catch((err: unknown) => console.warn('account notice not handled', err)),
      ),
  );
  return () => sub.unsubscribe();
}
