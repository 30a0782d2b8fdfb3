import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import type strings from '../../locales/en/console.json';
import { i18n, loadNamespace, startI18n } from '../lib/i18n';
import { applyTheme, initialLang, settings, storeLang } from '../state/settings';
import { ConsoleApp } from './ConsoleApp';
import './console.css';

/**
 * The support console's start (src/main.tsx loads this chunk only at /ops): the stored theme and language, the
 * shell's tables and the console's, then the console. The user app does not run here: no user session, socket or
 * router.
 */
export async function startConsole(): Promise<void> {
  applyTheme(settings.theme);
  const lang = initialLang();
  storeLang(lang);
  await startI18n(lang);
  try {
    await loadNamespace('console');
  } catch (err) {
    console.warn('console texts failed to load', err);
  }
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: true, staleTime: 5_000 } },
  });
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <I18nextProvider i18n={i18n}>
          <ConsoleApp />
        </I18nextProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

declare module '../lib/i18n' {
  /** The console's table, loaded by this entry. */
  interface FeatureStrings {
    console: typeof strings;
  }
}
