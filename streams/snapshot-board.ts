import type { InstrumentInfo } from '../protocol/market';
import { coinQuotes } from './market';
import { receivedSnapshot } from './market-snapshot';
import type { QuoteBoard } from './quotes';

/**
 * The coin quotes of the market snapshot the server wrote into this page (issue 27, prices at first paint), as a
 * first board for whatever shows them on its first render: the home list, and a trading tab's price header when that
 * tab is the first page opened. Only while the snapshot is younger than the staleness limit: an older one is never
 * shown (the views wait for live prices, as without one). The coin quotes' freshness starts at the snapshot's age
 * (streams/market.ts), so a view that showed it is marked stale when live prices that old would be.
 */
export function snapshotBoard(now: number = Date.now()): QuoteBoard | undefined {
  const snapshot = receivedSnapshot();
  if (!snapshot || now - snapshot.seenAt > coinQuotes().freshness.limitMs) return undefined;
  return { quotes: new Map(snapshot.quotes.map((q) => [q.symbol, q])), version: 1 };
}

/**
 * An instrument's facts (its price's decimals) from the page's market snapshot: what a trading tab opened first needs
 * to draw its price header from the snapshot's quote before its own terms have come (the same list coin/list
 * answers; facts, not prices, so no age limit).
 */
export function snapshotInstrument(symbol: string): InstrumentInfo | undefined {
  return receivedSnapshot()?.instruments.find((i) => i.symbol === symbol);
}
