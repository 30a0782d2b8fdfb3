import { receivedSnapshot } from '../../../streams/market-snapshot';
import type { QuoteBoard } from '../../../streams/quotes';
import { snapshotBoard as quotesBoard } from '../../../streams/snapshot-board';
import { keys } from '../../data/keys';
import { queryClient } from '../../data/query';

/**
 * Home's first render from the market snapshot the server wrote into the page (issue 27, prices at first paint;
 * streams/market-snapshot.ts). Imported by the home page only: on load the instrument list is known (the same list
 * coin/list answers for every kind), before anything renders.
 */
const snapshot = receivedSnapshot();
if (snapshot && queryClient.getQueryData(keys.instruments) === undefined) {
  queryClient.setQueryData(keys.instruments, snapshot.instruments.slice());
}

/**
 * The snapshot's quotes as the home list's first board (streams/snapshot-board.ts). Defined here, not re-exported:
 * only a module whose own export is used keeps its load-time code (package.json `sideEffects` names CSS alone).
 */
export function snapshotBoard(now?: number): QuoteBoard | undefined {
  return quotesBoard(now);
}
