/*
 * Part of the service worker (vite.config.ts workbox.importScripts): a tap on one of the app's system notifications
 * (a price alert that fired, src/features/alerts/notice.ts) brings the app forward at the page the notification
 * names, in a window of the app that is already open, else in a new one.
 */
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = typeof event.notification.data?.url === 'string' ? event.notification.data.url : '/';
  const url = new URL(path, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (!open) return self.clients.openWindow(url);
      // navigate() is refused for a window the worker does not control yet: it is brought forward as it is.
      return open
        .focus()
        .then((w) => w.navigate(url))
        .catch(() => undefined);
    }),
  );
});
