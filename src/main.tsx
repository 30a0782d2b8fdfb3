import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { subscribeKey } from 'valtio/utils';
import { APP_STARTED_ATTRIBUTE } from '../streams/document-arrival';
import { configureRealtime, refreshRealtimeAuth } from '../streams/socket';
import { connectApi } from './app/api-wiring';
import { setNavigator } from './app/navigation';
import { pageAt } from './app/pages';
import { createAppRouter, preloadPage } from './app/router';
import { invalidateOnAccountEvents } from './data/account-events';
import { forgetUserData, queryClient } from './data/query';
import { i18n, startI18n } from './lib/i18n';
import { startServiceWorker } from './pwa/start';
import { isLoggedIn, session } from './state/session';
import { applyTheme, initialLang, settings, storeLang } from './state/settings';
import './app/theme.css';
import './app/shell.css';
import './components/components.css';

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}

// The support console (/ops, for operators) is a separate part of the app: its code loads only there, as a chunk of
// its own, and the user app below never starts in it (nor loads the console's code anywhere else).
if (/^\/ops(\/|$)/.test(window.location.pathname)) {
  import('./console/console-main')
    .then((opsConsole) => opsConsole.startConsole())
    .catch((err: unknown) => {
      // No tables are loaded yet: the two offered languages, like index.html's noscript text.
      console.error('console failed to start', err);
      document.body.textContent = 'The console could not be loaded. / Die Konsole konnte nicht geladen werden.';
    });
} else {
  startApp();
}

/** The user app: router, API and socket wiring, languages, then the first render. */
function startApp(): void {
  const router = createAppRouter();

  setNavigator((target, replace) => {
    void router.navigate({ to: target.to, search: target.search ?? {}, replace });
  });

  // core/api gets the session token and language from here, and the shell turns its events into toasts, the loading
  // bar and the logout on a dead session.
  connectApi();

  // The socket's handshake carries the session token; a login or logout reconnects it as the new user.
  configureRealtime({ token: () => session.token });

  // While logged in, the user's account events keep the fetched data current (src/data/account-events.ts).
  let stopAccountEvents: (() => void) | null = null;
  const followSession = () => {
    if (session.token && !stopAccountEvents) stopAccountEvents = invalidateOnAccountEvents();
    else if (!session.token && stopAccountEvents) {
      stopAccountEvents();
      stopAccountEvents = null;
    }
  };
  followSession();
  subscribeKey(session, 'token', () => {
    refreshRealtimeAuth();
    forgetUserData();
    followSession();
  });

  applyTheme(settings.theme);
  // Keep lang and language-mark in storage from the first start on (SPEC 3).
  const lang = initialLang();
  storeLang(lang);

  const i18nReady = startI18n(lang);

  // The first page's module and its feature's strings load beside the shell's tables, not after the first render
  // (its route finds them loaded). A protected page is left to the login guard when there is no session.
  const firstPage = pageAt(window.location.pathname);
  const firstPageReady =
    firstPage && (!firstPage.auth || isLoggedIn())
      ? preloadPage(router, window.location.pathname).catch(() => {})
      : Promise.resolve();
  // index.html may have drawn the page already (a guest's home, a member's trading tab: scripts/first-paint.ts).
  // React's first render replaces it, so it waits until it can draw that page itself (its module, the route's match),
  // never an empty frame in between; a page that fails to load shows its error view as usual. From here on the first
  // paint draws nothing new: what is decided now holds.
  document.documentElement.setAttribute(APP_STARTED_ATTRIBUTE, '');
  const drawnAlready = document.querySelector('[data-first-paint]') !== null;
  const firstRender = drawnAlready
    ? Promise.all([i18nReady, firstPageReady, router.load().catch(() => {})])
    : i18nReady;

  firstRender.then(() => {
    const root = document.getElementById('root');
    if (!root) throw new Error('index.html has no #root');
    createRoot(root).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <I18nextProvider i18n={i18n}>
            <RouterProvider router={router} />
          </I18nextProvider>
        </QueryClientProvider>
      </StrictMode>,
    );
    // The installable app's worker (src/pwa/): after the first render and the page's load, in a chunk of its own.
    startServiceWorker();
  });
}
