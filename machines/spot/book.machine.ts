import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { SpotOrder } from '../../protocol/spot';
import { type BookEvent, createBookMachine } from '../live-book';
import { spotOrderMachine } from './order.machine';

/**
 * The user's spot orders as the page draws them (machines/live-book.ts): the open orders of every pair, newest first,
 * from the merged orders stream (topic and polling), one order machine per open order (its cancel runs through it),
 * the ticket an order machine too. The page shows the rows of its pair.
 */

/** LIST is the open orders; CHANGE an order change, which the ticket follows by request id. */
export type SpotBookEvent = BookEvent<SpotOrder[], SpotOrder>;

export type SpotOrderRef = ActorRefFrom<typeof spotOrderMachine>;

export interface SpotBookInput {
  /** Makes request ids for the order machines (core/ids.ts newRequestId in the app, a counter in tests). */
  makeId: () => string;
}

export const spotBookMachine = createBookMachine({
  id: 'spotBook',
  listKey: 'open',
  row: spotOrderMachine,
  records: (orders: SpotOrder[]) => orders,
  ticketInput: (input: SpotBookInput) => ({ makeId: input.makeId }),
  rowInput: (input, order) => ({ makeId: input.makeId, order }),
  update: (order) => ({ type: 'ORDER_UPDATE' as const, order }),
});

export type SpotBookSnapshot = SnapshotFrom<typeof spotBookMachine>;
