import { distinctUntilChanged, map, type Observable, type OperatorFunction } from 'rxjs';
import { pollLeverPosition, pollOpenPositions } from '../../core/api/lever';
import {
  type LeverAccount,
  type LeverPosition,
  OPEN_LEVER_PHASES,
  POSITIONS_TOPIC,
  type PositionsTopicMessage,
  positionsTopicMessage,
} from '../../protocol/lever';
import type { RecordedTick } from '../../protocol/price-record';
import { coinQuotes } from '../market';
import {
  createPrivateRecordStream,
  type PrivateRecordStream,
  type PrivateRecordsSource,
  type RecordKind,
  type RecordStreamOptions,
} from '../private-records';
import type { QuoteBoard } from '../quotes';
import { realtime } from '../socket';

/**
 * The user's lever orders and positions: the private `positions` topic (a snapshot of the open ones of both books,
 * then each changed one) merged with polling of lever/my_trade (orders and positions, both books), as
 * streams/private-records.ts merges any private records. Views pick their book with `inBook`.
 */

/** What this stream needs of the tab's socket (RealtimeSocket, or a fake in tests). */
export type PositionsSource = PrivateRecordsSource;

/** Open: status 0 (waiting, pending), 1 (holding) and 2 (closing); closed and cancelled ones leave the list. */
export const isOpenPosition = (p: LeverPosition): boolean => (OPEN_LEVER_PHASES as readonly string[]).includes(p.phase);

export type PositionStreamOptions = RecordStreamOptions<LeverPosition>;

export type PositionChange = { kind: 'position'; position: LeverPosition } | { kind: 'closed' };

/**
 * The open orders and positions of both books, newest first, shared and replayed to late observers; and each one as
 * it changes (placed, opened, closing, closed, liquidated, cancelled), once per change, `closed` when open ones left
 * unseen. Feed `changes$` to the row machines as { type: 'POSITION', position }.
 */
export type PositionStream = PrivateRecordStream<LeverPosition, PositionChange>;

const positions: RecordKind<LeverPosition, PositionsTopicMessage, PositionChange> = {
  topic: POSITIONS_TOPIC,
  schema: positionsTopicMessage,
  read: (message) => (message.kind === 'snapshot' ? { open: message.positions } : { record: message.position }),
  isOpen: isOpenPosition,
  change: (position) => ({ kind: 'position', position }),
};

export function createPositionStream(options: PositionStreamOptions): PositionStream {
  return createPrivateRecordStream(positions, options);
}

let shared: PositionStream | undefined;

/** The tab's position stream, created on first use and shared by every view. */
export function leverPositions(): PositionStream {
  shared ??= createPositionStream({ source: realtime(), poll: pollOpenPositions, fetchOne: pollLeverPosition });
  return shared;
}

/** One book's open list split as lever/my_trade lists it: orders (status 0) and positions (1, 2). */
export interface BookLists {
  orders: LeverPosition[];
  positions: LeverPosition[];
}

export function inBook(account: LeverAccount): OperatorFunction<readonly LeverPosition[], BookLists> {
  return map((open) => {
    const mine = open.filter((p) => p.account_type === account);
    return { orders: mine.filter((p) => p.status === 0), positions: mine.filter((p) => p.status !== 0) };
  });
}

/** A mark for the live P&L: the latest price of a symbol, as the tick the server records (RecordedTick's shape). */
export type Mark = RecordedTick;

/**
 * The marks of `symbols` from the coin quotes (lever trades the market's instruments), one list per change of any of
 * them; symbols without a quote yet are left out.
 */
export function leverMarks(
  symbols: readonly string[],
  board$: Observable<QuoteBoard> = coinQuotes().board$,
): Observable<Mark[]> {
  return board$.pipe(
    map((board) =>
      symbols.flatMap((symbol) => {
        const q = board.quotes.get(symbol);
        return q ? [{ symbol, seq: q.seq, ts: q.ts, price: q.last }] : [];
      }),
    ),
    // Other symbols moving change the board, not these marks.
    distinctUntilChanged(
      (a, b) => a.length === b.length && a.every((m, i) => m.seq === b[i]?.seq && m.ts === b[i]?.ts),
    ),
  );
}
