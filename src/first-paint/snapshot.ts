import type { InstrumentInfo, Quote } from '../../protocol/market';
import { snapshotArrivedAt } from '../../streams/document-arrival';

/** The snapshot's element (protocol/market-snapshot.ts MARKET_SNAPSHOT_ID; that module's schemas stay out of here). */
export const SNAPSHOT_ID = 'tw-market';

/** What the server wrote into the page (protocol/market-snapshot.ts), as the inline script reads it unchecked. */
export interface Snapshot {
  served_at: number;
  quotes: Quote[];
  instruments: InstrumentInfo[];
}

/** The page's snapshot with its age now, as the app counts it (streams/market-snapshot.ts). */
export interface AgedSnapshot {
  snapshot: Snapshot;
  /** Milliseconds since its newest price was current: at the server, plus since it arrived here. */
  age: number;
}

/**
 * The page's market snapshot while it is younger than `staleMs`, or undefined (none, or too old to be shown as
 * current). A snapshot is never drawn once it is not current: the first paint's painters call this, and mark what
 * they drew stale when `staleMs - age` has passed without the app taking over.
 */
export function currentSnapshot(element: Element, staleMs: number): AgedSnapshot | undefined {
  const json = element.textContent;
  if (!json) return undefined;
  const snapshot = JSON.parse(json) as Snapshot;
  const newest = snapshot.quotes.reduce((ts, q) => Math.max(ts, q.ts), Number.NEGATIVE_INFINITY);
  const age = snapshot.served_at - newest + Math.max(0, Date.now() - snapshotArrivedAt(element));
  return age >= 0 && age < staleMs ? { snapshot, age } : undefined;
}
