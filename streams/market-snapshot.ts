import type { InstrumentInfo, Quote } from '../protocol/market';
import { MARKET_SNAPSHOT_ID, marketSnapshot } from '../protocol/market-snapshot';
import { SNAPSHOT_READ_ATTRIBUTE, snapshotArrivedAt } from './document-arrival';

/** The server's market snapshot as this page received it (issue 27, prices at first paint). */
export interface ReceivedSnapshot {
  quotes: readonly Quote[];
  instruments: readonly InstrumentInfo[];
  /** When its newest quote was current, in this device's time (the server's clock is not this one). */
  seenAt: number;
}

let taken: ReceivedSnapshot | null | undefined;

/** Reads and checks the snapshot the server wrote into this page; null when there is none or it does not read. */
function read(): ReceivedSnapshot | null {
  if (typeof document === 'undefined') return null;
  const element = document.getElementById(MARKET_SNAPSHOT_ID);
  if (!element?.textContent) return null;
  let json: unknown;
  try {
    json = JSON.parse(element.textContent);
  } catch {
    return null;
  }
  const parsed = marketSnapshot.safeParse(json);
  if (!parsed.success) return null;
  const { served_at, quotes, instruments } = parsed.data;
  const newest = quotes.reduce((ts, q) => Math.max(ts, q.ts), Number.NEGATIVE_INFINITY);
  if (!Number.isFinite(newest)) return null;
  return { quotes, instruments, seenAt: snapshotArrivedAt(element) - Math.max(0, served_at - newest) };
}

/**
 * The market snapshot of this page load, read once (the quote stream and the instrument list both start from it);
 * null when the page came without one (a server without a feed) or when the service worker's copy's request for one
 * (src/first-paint/market.ts) had not been answered by the time the app first asked.
 */
export function receivedSnapshot(): ReceivedSnapshot | null {
  if (taken === undefined) {
    taken = read();
    // The first paint's painter draws no list from a snapshot answered after this: the app would not start from it.
    if (typeof document !== 'undefined') document.documentElement.setAttribute(SNAPSHOT_READ_ATTRIBUTE, '');
  }
  return taken;
}
