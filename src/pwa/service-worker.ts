/// <reference types="vite-plugin-pwa/vanillajs" />
import { registerSW } from 'virtual:pwa-register';
import { offerUpdate } from './UpdatePrompt';

/**
 * The service worker's registration, a chunk of its own loaded after the first render (src/pwa/start.ts), with
 * vite-plugin-pwa's `registerSW` over workbox-window (registerType 'prompt'): a new version that is installed and
 * waiting is offered in the shell (UpdatePrompt); "reload" tells it to skip waiting, and once it controls the page
 * the page reloads, once.
 */
export function registerServiceWorker(win: Window = window): void {
  let reloading = false;
  const updateServiceWorker = registerSW({
    // Called after the page's load event already (start.ts): no reason to wait for it again.
    immediate: true,
    onNeedRefresh: () => offerUpdate(() => updateServiceWorker()),
    onNeedReload: () => {
      if (reloading) return;
      reloading = true;
      win.location.reload();
    },
    onRegisteredSW: (_url, registration) => {
      if (!registration) return;
      checkForUpdates(win, registration);
      void keepLoadedAssets(win);
    },
    onRegisterError: (err: unknown) => console.warn('service worker not registered', err),
  });
}

/** How often an open app asks for a new version besides at start and when it comes back into view. */
export const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * The browser looks for a new worker on navigations, which an installed single-page app seldom makes: ask again
 * when the app comes back into view (a phone app is mostly resumed, not started) and hourly while it stays open.
 */
function checkForUpdates(win: Window, registration: ServiceWorkerRegistration): void {
  const check = () => {
    if (win.navigator.onLine) registration.update().catch(() => {});
  };
  win.document.addEventListener('visibilitychange', () => {
    if (win.document.visibilityState === 'visible') check();
  });
  win.setInterval(check, UPDATE_CHECK_MS);
}

/**
 * The files of this visit that came before the worker controlled the page (on the first visit: all of them, such as
 * the tables of a language other than German and English, or the chunks of the page a link opened) are fetched again
 * through the worker, whose cache-first route for /assets/ keeps them (vite.config.ts), so the same page opens
 * offline next time. They come from the browser's HTTP cache (immutable), not the network.
 */
export async function keepLoadedAssets(win: Window = window): Promise<number> {
  const container = win.navigator.serviceWorker;
  if (!container.controller) {
    await new Promise<void>((resolve) =>
      container.addEventListener('controllerchange', () => resolve(), { once: true }),
    );
  }
  let kept = 0;
  for (const url of loadedAssets(win.performance.getEntriesByType('resource'), win.location.origin)) {
    if (await win.caches.match(url, { ignoreSearch: true })) continue;
    try {
      const response = await win.fetch(url);
      if (response.ok) kept += 1;
    } catch {
      // Offline again: the next start tries again.
    }
  }
  return kept;
}

/** The content-hashed files (/assets/) of this origin among the page's loaded resources, each once. */
export function loadedAssets(entries: readonly PerformanceEntry[], origin: string): string[] {
  const urls = new Set<string>();
  for (const entry of entries) {
    const url = new URL(entry.name, origin);
    if (url.origin === origin && url.pathname.startsWith('/assets/')) urls.add(`${url.origin}${url.pathname}`);
  }
  return [...urls];
}
