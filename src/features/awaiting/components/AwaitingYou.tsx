import { lazy, type ReactElement, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { loadNamespace } from '../../../lib/i18n';
import { isLoggedIn, session } from '../../../state/session';

/**
 * The list itself, its streams and its strings, loaded only once a user is logged in: a guest's first route carries
 * none of it (its byte budget is tight), and no topic or poll is ever asked for without a session.
 */
const AwaitingList = lazy(() =>
  Promise.all([import('./AwaitingList'), loadNamespace('awaiting')]).then(([m]) => ({ default: m.AwaitingList })),
);

/** What waits for the logged-in user (see AwaitingList); nothing at all for a guest. */
export function AwaitingYou(): ReactElement | null {
  const snap = useSnapshot(session);
  if (!isLoggedIn(snap)) return null;
  // One list per user: another login in this tab starts from that user's records, never the last one's.
  return (
    <Suspense fallback={null}>
      <AwaitingList key={snap.user?.id} />
    </Suspense>
  );
}
