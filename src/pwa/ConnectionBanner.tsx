import { type ReactElement, useCallback, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { realtime } from '../../streams/socket';
import { Icon } from '../components/Icon';
import { currentProblem, followConnection, type SocketStatus } from './connection';

/**
 * The shell's offline state, on every page (also on a shell the service worker served while the server is down):
 * the device is offline, or the server does not answer. Gone as soon as the socket is connected again.
 */
export function ConnectionBanner({
  socket,
}: {
  /** The tab's socket unless given (tests). */
  socket?: SocketStatus;
}): ReactElement | null {
  const { t } = useTranslation();
  const source = socket ?? realtime();
  const subscribe = useCallback((changed: () => void) => followConnection(window, source, changed), [source]);
  const problem = useSyncExternalStore(subscribe, () => currentProblem(window, source));
  if (!problem) return null;
  return (
    <p className="pwa-banner" data-testid="connection-banner" data-problem={problem}>
      <Icon name="alert" size={18} />
      <span>{t(problem === 'offline' ? 'pwa.offline' : 'pwa.unreachable')}</span>
    </p>
  );
}
