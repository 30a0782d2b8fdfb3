import { configureApi } from '../../core/api/client';
import { apiEvents } from '../../core/api/events';
import { errorText, i18n } from '../lib/i18n';
import { loadingBegan, loadingEnded } from '../state/loading';
import { clearSession, session } from '../state/session';
import { settings } from '../state/settings';
import { toast } from '../state/toasts';
import { LOGIN_PATH, loginGuard } from './guard';
import { currentHref, navigateTo } from './navigation';
import { isTabPath } from './tabs';

/** SPEC 4: after a type-999 answer the app goes to login this much later. */
export const EXPIRED_REDIRECT_MS = 1000;

/**
 * Type 999 (SPEC 4): token and user are cleared, the message is toasted, and a second later the app goes to login
 * with the backpage and backtype (through the login guard, so several calls answering 999 together go there once).
 * The core client has already emitted its not-logged-in event; this listener is the first to hear it.
 */
function sessionExpired(message: string): void {
  clearSession();
  toast(message || errorText('sessionExpired'), 'error');
  const here = currentHref();
  const pathname = here.split('?')[0] ?? '/';
  if (pathname === LOGIN_PATH) return;
  const { fresh, target } = loginGuard.trigger(here, isTabPath(pathname));
  if (fresh) setTimeout(() => navigateTo(target), EXPIRED_REDIRECT_MS);
}

let disconnect: (() => void) | null = null;

/**
 * Connects core/api to the app: the session token and language go into every request, and the client's events
 * become what SPEC 7 says the user sees (toasts, the loading bar, the logout on 999). Called once at start
 * (src/main.tsx); calling it again replaces the earlier connection.
 */
export function connectApi(): () => void {
  disconnect?.();
  configureApi({
    headers: () => ({ token: session.token, lang: settings.lang }),
    text: (key) =>
      key === 'timeout'
        ? i18n.t('app:net.timeout')
        : key === 'offline'
          ? i18n.t('app:net.offline')
          : errorText('uploadFailed'),
  });
  const offs = [
    apiEvents.on('notLoggedIn', ({ message }) => sessionExpired(message)),
    apiEvents.on('failed', ({ message }) => toast(message, 'error')),
    apiEvents.on('notice', ({ message }) => toast(message, 'info')),
    apiEvents.on('loadingBegin', loadingBegan),
    apiEvents.on('loadingEnd', loadingEnded),
  ];
  const off = () => {
    for (const o of offs) o();
    if (disconnect === off) disconnect = null;
  };
  disconnect = off;
  return off;
}
