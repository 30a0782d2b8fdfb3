import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { subscribeKey } from 'valtio/utils';
import { configureRealtime, refreshRealtimeAuth } from '../streams/socket';
import { setNavigator } from './app/navigation';
import { createAppRouter } from './app/router';
import { i18n, startI18n } from './lib/i18n';
import { session } from './state/session';
import { applyTheme, initialLang, settings, storeLang } from './state/settings';
import './app/theme.css';
import './app/market.css';
import './app/assets.css';
import './app/identity.css';
import './app/wallet.css';
import './app/funding.css';

const router = createAppRouter();

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

setNavigator((target, replace) => {
  void router.navigate({ to: target.to, search: target.search ?? {}, replace });
});

// The socket's handshake carries the session token; a login or logout reconnects it as the new user.
configureRealtime({ token: () => session.token });
subscribeKey(session, 'token', refreshRealtimeAuth);

applyTheme(settings.theme);
// Keep lang and language-mark in storage from the first start on (SPEC 3).
const lang = initialLang();
storeLang(lang);

startI18n(lang).then(() => {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  createRoot(root).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </StrictMode>,
  );
});
