import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { LeverAccount, LeverPosition } from '../../protocol/lever';
import type { BookLists } from '../../streams/lever/positions';
import { type BookEvent, createBookMachine } from '../live-book';
import { leverOrderMachine } from './order.machine';

/**
 * One lever book as the page draws it (machines/live-book.ts): its open orders and positions from the positions
 * stream, one order machine per row, the ticket an order machine too. The positions worker runs as the book's `feed`
 * (machines/lever/live.ts), so its figures follow the stream and not a render.
 */

/** LIST is the book's lists; CHANGE a position change (any book's), which the ticket follows by request id. */
export type LeverBookEvent = BookEvent<BookLists, LeverPosition>;

export type LeverOrderRef = ActorRefFrom<typeof leverOrderMachine>;

export interface LeverBookInput {
  book: LeverAccount;
  /** Makes request ids for the order machines (core/ids.ts newRequestId in the app, a counter in tests). */
  makeId: () => string;
}

export const leverBookMachine = createBookMachine({
  id: 'leverBook',
  listKey: 'lists',
  row: leverOrderMachine,
  records: (lists: BookLists) => [...lists.orders, ...lists.positions],
  ticketInput: (input: LeverBookInput) => ({ makeId: input.makeId, ticket: true }),
  rowInput: (input, position) => ({ makeId: input.makeId, position }),
  update: (position) => ({ type: 'POSITION' as const, position }),
});

export type LeverBookSnapshot = SnapshotFrom<typeof leverBookMachine>;
