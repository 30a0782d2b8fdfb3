import { coinQuotes } from '../../../streams/market';
import { receivedSnapshot } from '../../../streams/market-snapshot';
import type { QuoteBoard } from '../../../streams/quotes';
import { keys } from '../../data/keys';
import { queryClient } from '../../data/query';

/**
 * Home's first render from the market snapshot the server wrote into the page (issue 27, prices at first paint;
 * streams/market-snapshot.ts). Imported by the home page only, the one page served with a snapshot, so no other
 * route carries it. On load: the instrument list is known (the same list coin/list answers for every kind), and the
 * coin quotes' age starts at the snapshot's, so the list is shown current only while the snapshot still is.
 */
const snapshot = receivedSnapshot();
if (snapshot) {
  if (queryClient.getQueryData(keys.instruments) === undefined) {
    queryClient.setQueryData(keys.instruments, snapshot.instruments.slice());
  }
  coinQuotes().freshness.touch(snapshot.seenAt);
}

/**
 * The snapshot's quotes as the list's first board, while they are younger than the staleness limit: a snapshot
 * older than that is never shown (the list waits for live prices, as without one), and neither is one a page kept
 * long after its first render (the live board has replaced it by then).
 */
export function snapshotBoard(now: number = Date.now()): QuoteBoard | undefined {
  if (!snapshot || now - snapshot.seenAt > coinQuotes().freshness.limitMs) return undefined;
  return { quotes: new Map(snapshot.quotes.map((q) => [q.symbol, q])), version: 1 };
}
