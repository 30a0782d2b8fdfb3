/**
 * When this page's document arrived, in this device's time: the navigation's response start. What the server wrote
 * into the document (the market snapshot) was current as it left; its age counts from here.
 */
export function documentArrivedAt(): number {
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return performance.timeOrigin + (navigation?.responseStart || 0);
}

/** The attribute a fetched snapshot's element carries: when its answer arrived, in this device's time (ms). */
export const ARRIVED_AT_ATTRIBUTE = 'data-arrived-at';

/**
 * When the market snapshot in `element` arrived: with the document, or, for a page that came without one (the service
 * worker's copy), when the first paint's own request for it was answered.
 */
export function snapshotArrivedAt(element: Element): number {
  const fetched = Number(element.getAttribute(ARRIVED_AT_ATTRIBUTE));
  return Number.isFinite(fetched) && fetched > 0 ? fetched : documentArrivedAt();
}

/** Set on the document once the app has read the page's snapshot (streams/market-snapshot.ts). */
export const SNAPSHOT_READ_ATTRIBUTE = 'data-tw-snapshot-read';

/**
 * Set on the document when the app starts (src/main.tsx), before it decides whether the first paint has drawn the
 * page it opens on: from then on, the first paint's scripts draw nothing new into the root (scripts/first-paint.ts).
 */
export const APP_STARTED_ATTRIBUTE = 'data-tw-started';
