import { EMPTY } from 'rxjs';
import {
  type ActorRefFrom,
  type EventObject,
  enqueueActions,
  fromCallback,
  fromEventObservable,
  type SnapshotFrom,
  setup,
} from 'xstate';
import type { LeverAccount, LeverPosition } from '../../protocol/lever';
import type { BookLists } from '../../streams/lever/positions';
import { type LiveRow, rowChanges } from '../live-rows';
import { leverOrderMachine } from './order.machine';

/**
 * One lever book as the page draws it, alive outside React (DESIGN "The data flow, one way"): the book's open lists
 * come from the positions stream, the price gate from the quotes' freshness, each position change from the stream's
 * changes; the ticket and every open order or position is a child order machine, spawned when its row appears,
 * told each newer copy of its position and the gate, and stopped when the row leaves the open lists. The positions
 * worker runs as the invoked `figures` actor for as long as the book does, so its figures follow the stream and not
 * a render.
 *
 * The sources are named actors, provided by the live controller (machines/lever/live.ts) with the app's streams and
 * worker, and by tests with subjects: the machine itself holds no stream.
 */

export type LeverBookEvent =
  | { type: 'LISTS'; lists: BookLists }
  /** A position changed (any book's): the ticket follows the order it placed by request id. */
  | { type: 'CHANGE'; position: LeverPosition }
  | { type: 'PRICES_FRESH' }
  | { type: 'PRICES_STALE' };

export type LeverOrderRef = ActorRefFrom<typeof leverOrderMachine>;

type Row = LiveRow<LeverPosition, LeverOrderRef>;

export interface LeverBookContext {
  book: LeverAccount;
  makeId: () => string;
  /** Null until the stream's first list. */
  lists: BookLists | null;
  /** Stale until the feed proves itself (streams/freshness.ts). */
  fresh: boolean;
  ticket: LeverOrderRef;
  /** Per position id, its row's machine. */
  rows: Readonly<Record<number, Row>>;
}

export interface LeverBookInput {
  book: LeverAccount;
  /** Makes request ids for the order machines (core/ids.ts newRequestId in the app, a counter in tests). */
  makeId: () => string;
}

/** What the source actors are given: the book they serve. */
export interface BookSourceInput {
  book: LeverAccount;
}

export const leverBookMachine = setup({
  types: {} as { context: LeverBookContext; input: LeverBookInput; events: LeverBookEvent },
  actors: {
    order: leverOrderMachine,
    /** LISTS of the book, as the positions stream has them. */
    lists: fromEventObservable<LeverBookEvent, BookSourceInput>(() => EMPTY),
    /** CHANGE for every position change the stream tells once. */
    changes: fromEventObservable<LeverBookEvent, BookSourceInput>(() => EMPTY),
    /** PRICES_FRESH / PRICES_STALE from the quotes' freshness. */
    gate: fromEventObservable<LeverBookEvent, BookSourceInput>(() => EMPTY),
    /** The positions worker, fed from the streams while the book runs; it sends nothing back. */
    figures: fromCallback<EventObject, BookSourceInput>(() => undefined),
  },
  actions: {
    /** The gate is the book's and every machine's: actions stop in all of them at once while prices are stale. */
    tellGate: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'PRICES_FRESH' && event.type !== 'PRICES_STALE') return;
      enqueue.assign({ fresh: event.type === 'PRICES_FRESH' });
      enqueue.sendTo(context.ticket, { type: event.type });
      for (const row of Object.values(context.rows)) enqueue.sendTo(row.ref, { type: event.type });
    }),
  },
}).createMachine({
  id: 'leverBook',
  context: ({ input, spawn }) => ({
    book: input.book,
    makeId: input.makeId,
    lists: null,
    fresh: false,
    ticket: spawn('order', { id: 'ticket', input: { makeId: input.makeId } }),
    rows: {},
  }),
  invoke: [
    { src: 'lists', input: ({ context }) => ({ book: context.book }) },
    { src: 'changes', input: ({ context }) => ({ book: context.book }) },
    { src: 'gate', input: ({ context }) => ({ book: context.book }) },
    { src: 'figures', input: ({ context }) => ({ book: context.book }) },
  ],
  on: {
    LISTS: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const open = [...event.lists.orders, ...event.lists.positions];
        const { gone, newer, added } = rowChanges(context.rows, open);
        for (const ref of gone) enqueue.stopChild(ref);
        for (const { ref, record } of newer) enqueue.sendTo(ref, { type: 'POSITION', position: record });
        enqueue.assign(({ spawn }) => {
          const rows: Record<number, Row> = {};
          for (const position of open) {
            const ref =
              context.rows[position.id]?.ref ??
              spawn('order', { id: `row-${position.id}`, input: { makeId: context.makeId, position } });
            rows[position.id] = { ref, record: position };
          }
          return { rows, lists: event.lists };
        });
        // A new row's machine starts stale, like the ticket; it learns the gate as the others did.
        if (context.fresh) {
          for (const position of added) {
            enqueue.sendTo(({ context: now }) => (now.rows[position.id] as Row).ref, { type: 'PRICES_FRESH' });
          }
        }
      }),
    },
    CHANGE: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        enqueue.sendTo(context.ticket, { type: 'POSITION', position: event.position });
      }),
    },
    PRICES_FRESH: { actions: 'tellGate' },
    PRICES_STALE: { actions: 'tellGate' },
  },
});

export type LeverBookSnapshot = SnapshotFrom<typeof leverBookMachine>;
