import { lazy, type ReactElement, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { loadNamespace } from '../../../lib/i18n';
import { isLoggedIn, session } from '../../../state/session';

/** The bell with its strings (and, on the first tap, its sheet): loaded only once a user is logged in. */
const AlertBell = lazy(() =>
  Promise.all([import('./AlertBell'), loadNamespace('alerts')]).then(([m]) => ({ default: m.AlertBell })),
);

/**
 * A bell that sets a price alert on `symbol` (RULES "Price alerts"), for a logged-in user; nothing for a guest. It
 * brings its own strings, so a page mounts it without borrowing the alerts namespace.
 */
export function AlertButton({ symbol }: { symbol: string }): ReactElement | null {
  const snap = useSnapshot(session);
  if (!isLoggedIn(snap)) return null;
  return (
    <Suspense fallback={null}>
      <AlertBell symbol={symbol} />
    </Suspense>
  );
}
