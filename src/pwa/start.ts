/**
 * Starts the installable app's service worker (issue 15) in the user app only (src/main.tsx; never in the support
 * console). Called after the first render, it waits for the page's load event and then loads the registration as a
 * chunk of its own, so neither workbox-window nor the registration grows the first route.
 */
export function startServiceWorker(win: Window = window): void {
  if (!import.meta.env.PROD || !('serviceWorker' in win.navigator)) return;
  const start = () => {
    import('./service-worker')
      .then((sw) => sw.registerServiceWorker(win))
      .catch((err: unknown) => console.warn('service worker registration not loaded', err));
  };
  if (win.document.readyState === 'complete') start();
  else win.addEventListener('load', start, { once: true });
}
