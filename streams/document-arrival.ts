/**
 * When this page's document arrived, in this device's time: the navigation's response start. What the server wrote
 * into the document (the market snapshot) was current as it left; its age counts from here.
 */
export function documentArrivedAt(): number {
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return performance.timeOrigin + (navigation?.responseStart || 0);
}
