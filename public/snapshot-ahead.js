/*
 * Part of the service worker (vite.config.ts workbox.importScripts), imported before workbox registers its routes, so
 * its fetch listener sees each request first.
 *
 * A repeat visit's page comes from the worker's cache, without the market snapshot the server writes into the pages
 * it serves. The page asks for one as soon as its head script runs (scripts/first-paint.ts), which on a slow phone is
 * about a second after the tap, and its prices then wait one more round trip. So the worker asks for the snapshot
 * with the navigation itself and hands that answer to the page's own request, with the time it arrived here (the
 * snapshot's age counts from then, src/first-paint/snapshot.ts): the prices wait for one round trip from the tap.
 *
 * The snapshot is the same public market data for everyone; nothing is cached: an answer is handed over once, to a
 * request made soon after its navigation, and a later request goes to the server.
 */
(() => {
  // src/first-paint/market.ts SNAPSHOT_CALL and SNAPSHOT_ARRIVED_HEADER (src/pwa/snapshot-ahead.test.ts holds them equal).
  const SNAPSHOT_CALL = '/api/market/snapshot';
  const ARRIVED_HEADER = 'x-tw-arrived-at';
  // A page's own request comes about a second after its navigation on a slow phone; one much later than that is
  // not this navigation's page, and asks the server afresh.
  const HAND_OVER_MS = 10_000;
  // The navigations the server answers itself (workbox navigateFallbackDenylist in vite.config.ts): not the app's page.
  const SERVER_PAGES = /^\/(api|socket\.io|ops)(\/|$)/;

  /** The latest navigation's snapshot request: when it was made and its answer read whole (or null if it failed). */
  let ahead = null;

  // Null when no whole answer came (offline, or the body broke off): the page's request then goes to the network.
  const ask = () =>
    fetch(SNAPSHOT_CALL, { credentials: 'same-origin' })
      .then(async (response) => ({
        status: response.status,
        statusText: response.statusText,
        headers: [...response.headers],
        body: await response.arrayBuffer(),
        arrivedAt: Date.now(),
      }))
      .catch(() => null);

  self.addEventListener('fetch', (event) => {
    const request = event.request;
    if (request.method !== 'GET') return;
    const url = new URL(request.url);
    if (url.origin !== self.location.origin) return;
    if (request.mode === 'navigate') {
      if (SERVER_PAGES.test(url.pathname)) return;
      // Workbox answers the navigation from its cache; the snapshot's round trip starts beside it.
      ahead = { askedAt: Date.now(), answer: ask() };
      event.waitUntil(ahead.answer);
      return;
    }
    if (url.pathname !== SNAPSHOT_CALL || url.search !== '' || !ahead) return;
    const taken = ahead;
    ahead = null;
    if (Date.now() - taken.askedAt > HAND_OVER_MS) return;
    event.respondWith(
      taken.answer.then((answer) => {
        // The navigation's request failed (offline, say): the page's own goes to the network as it would have.
        if (!answer) return fetch(request);
        const headers = new Headers(answer.headers);
        // The body was read decoded: its wire encoding and length no longer describe it.
        headers.delete('content-encoding');
        headers.delete('content-length');
        headers.set(ARRIVED_HEADER, String(answer.arrivedAt));
        return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
      }),
    );
  });
})();
