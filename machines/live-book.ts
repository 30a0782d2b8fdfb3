import { catchError, EMPTY, filter, map, merge, type Observable, switchMap, tap, timer } from 'rxjs';
import {
  type ActorRefFrom,
  type AnyActorRef,
  type AnyStateMachine,
  type EventFromLogic,
  type EventObject,
  enqueueActions,
  fromCallback,
  fromEventObservable,
  type InputFrom,
  setup,
} from 'xstate';
import { gateEvents, type LiveRow, rowChanges } from './live-rows';

/**
 * One product's live book as a page draws it, alive outside React (DESIGN "The data flow, one way"): its open list
 * comes from the product's stream, the price gate from the quotes' freshness, each record change from the stream's
 * changes; the ticket and every open record is a child machine of the product's kind, spawned when its row appears,
 * told each newer copy and the gate, and stopped when the row leaves the list.
 *
 * The sources are named actors (`list`, `changes`, `gate`, and `feed` for whatever else runs as long as the book,
 * such as lever's positions worker), provided by the product's live controller (machines/<product>/live.ts) with the
 * app's streams, and by tests with subjects: the machine itself holds no stream. Every product's book is this one
 * machine with its own row machine, so the gate, the rows and their lifetimes behave alike everywhere.
 */

export type BookEvent<L, R> =
  | { type: 'LIST'; list: L }
  /** A record changed (in any book of the product): the ticket follows the one it placed by request id. */
  | { type: 'CHANGE'; record: R }
  | { type: 'PRICES_FRESH' }
  | { type: 'PRICES_STALE' }
  /** The socket came back after a drop: a submission left waiting asks again under its id (machines/submission). */
  | { type: 'RECONNECT' };

/** What every book holds, whatever the product; `K` names its list in the context (lever `lists`, options `open`). */
export type BookContext<In, K extends string, L, R, Ref> = {
  input: In;
  /** Stale until the feed proves itself (streams/freshness.ts). */
  fresh: boolean;
  ticket: Ref;
  /** Per record id, its row's machine and the copy it was told last. */
  rows: Readonly<Record<number, LiveRow<R, Ref>>>;
} & { readonly [P in K]: L | null };

export interface BookSpec<In, K extends string, L, R extends { id: number }, M extends AnyStateMachine> {
  /** The root's machine id (what inspection and the drawings know it by). */
  id: string;
  /** The context key of the list as the stream has it; null until the stream's first one. */
  listKey: K;
  /** The machine of every row, and the ticket's unless the controller provides its own (`ticket`). */
  row: M;
  /** The open records of a list, one row each. */
  records: (list: L) => readonly R[];
  ticketInput: (input: In) => InputFrom<M>;
  rowInput: (input: In, record: R) => InputFrom<M>;
  /** How a row (or the ticket) is told a newer copy of its record. */
  update: (record: R) => EventFromLogic<M>;
}

/** How long a failed source waits before it subscribes again: doubling from half a second, at most 15 s. */
export const sourceRetryMs = (attempt: number): number => Math.min(500 * 2 ** (attempt - 1), 15_000);

/** The browser's report of an error nobody else handles (the console and the error event), where there is one. */
const reportUncaught = (error: unknown): void =>
  typeof globalThis.reportError === 'function' ? globalThis.reportError(error) : console.error(error);

/**
 * A source of a book as its live controller provides it: the events it sends the book while the book runs. A source
 * that fails (a malformed message, a stream that errors) is reported and subscribed again after a pause: an invoked
 * actor's error would otherwise stop the whole book, with its ticket and every row, and the page would never say.
 */
export function bookSource<L, R>(events: () => Observable<BookEvent<L, R>>, report = reportUncaught) {
  return fromEventObservable<EventObject, undefined>(() => resubscribing(events, report));
}

/** `source` again after each failure, reported; the pause grows while it keeps failing at once. */
function resubscribing<T>(source: () => Observable<T>, report: (error: unknown) => void, attempt = 1): Observable<T> {
  let delivered = false;
  return source().pipe(
    tap(() => {
      delivered = true;
    }),
    // catchError, timer and switchMap rather than retry: the app's streams load these already (a smaller page).
    catchError((error: unknown) => {
      report(error);
      const next = delivered ? 1 : attempt;
      return timer(sourceRetryMs(next)).pipe(switchMap(() => resubscribing(source, report, next + 1)));
    }),
  );
}

/** What a product's live controller feeds its book from (its streams, or a test's subjects). */
export interface BookStreams<L, C, R> {
  list$: Observable<L>;
  changes$: Observable<C>;
  /** The record a change carries; null for one that carries none (such as "open records left unseen"). */
  recordOf: (change: C) => R | null;
  /** Told each change once, as it comes: the page's news and refreshes. */
  onChange?: ((change: C) => void) | undefined;
  /** Whether prices are fresh enough to trade (streams/freshness.ts tradingGate). */
  fresh$: Observable<boolean>;
  /** Each return of the socket after a drop (streams/socket.ts `reconnected$`). */
  reconnected$?: Observable<unknown> | undefined;
  /** Where a failing source or page callback is reported (the browser's error report by default). */
  report?: ((error: unknown) => void) | undefined;
}

/** The book's `list`, `changes` and `gate` actors over a product's streams. */
export function bookSources<L, C, R>(streams: BookStreams<L, C, R>) {
  const report = streams.report ?? reportUncaught;
  return {
    list: bookSource<L, R>(() => streams.list$.pipe(map((list) => ({ type: 'LIST' as const, list }))), report),
    changes: bookSource<L, R>(
      () =>
        streams.changes$.pipe(
          // The page hears every change; the machines learn a record's through the event. A page callback that
          // throws is the page's problem: reported, and the book goes on.
          tap((change) => {
            try {
              streams.onChange?.(change);
            } catch (error) {
              report(error);
            }
          }),
          map(streams.recordOf),
          filter((record): record is R => record !== null),
          map((record) => ({ type: 'CHANGE' as const, record })),
        ),
      report,
    ),
    gate: bookSource<L, R>(
      () =>
        merge(
          gateEvents(streams.fresh$),
          (streams.reconnected$ ?? EMPTY).pipe(map(() => ({ type: 'RECONNECT' as const }))),
        ),
      report,
    ),
  };
}

/** The list under its product's key: the one place the key's type is put together. */
function listField<K extends string, L>(key: K, list: L): { readonly [P in K]: L } {
  return { [key]: list } as { readonly [P in K]: L };
}

export function createBookMachine<
  In,
  K extends string,
  L,
  R extends { id: number },
  M extends AnyStateMachine,
  Ref extends AnyActorRef = ActorRefFrom<M>,
>(spec: BookSpec<In, K, L, R, M>) {
  type Row = LiveRow<R, Ref>;
  type Context = BookContext<In, K, L, R, Ref>;
  type Event = BookEvent<L, R>;
  const gateEvent = (event: Event) =>
    event.type === 'PRICES_FRESH' || event.type === 'PRICES_STALE' ? { type: event.type } : null;
  return setup({
    types: {} as { context: Context; input: In; events: Event },
    actors: {
      // Any machine to XState's types, so they resolve inside this generic; the refs are the product's again below.
      row: spec.row as AnyStateMachine,
      /** The ticket's machine: the rows' by default; a product may tell its ticket's calls apart from a row's. */
      ticket: spec.row as AnyStateMachine,
      /** LIST with the book's open list, as the product's stream has it. */
      list: fromEventObservable<EventObject, undefined>(() => EMPTY),
      /** CHANGE for every record change the stream tells once. */
      changes: fromEventObservable<EventObject, undefined>(() => EMPTY),
      /** PRICES_FRESH / PRICES_STALE from the quotes' freshness. */
      gate: fromEventObservable<EventObject, undefined>(() => EMPTY),
      /** Whatever runs beside the book for as long as it does; it sends nothing back. */
      feed: fromCallback<EventObject>(() => undefined),
    },
    actions: {
      /** The gate is the book's and every machine's: actions stop in all of them at once while prices are stale. */
      tellGate: enqueueActions(({ context, event, enqueue }) => {
        const gate = gateEvent(event);
        if (!gate) return;
        enqueue.assign({ fresh: gate.type === 'PRICES_FRESH' } as Partial<Context>);
        enqueue.sendTo(context.ticket as AnyActorRef, gate);
        for (const row of Object.values<Row>(context.rows)) enqueue.sendTo(row.ref as AnyActorRef, gate);
      }),
    },
  }).createMachine({
    id: spec.id,
    context: ({ input, spawn }) =>
      ({
        input,
        fresh: false,
        ticket: spawn('ticket', { id: 'ticket', input: spec.ticketInput(input) }) as Ref,
        rows: {},
        ...listField(spec.listKey, null),
      }) as Context,
    invoke: [{ src: 'list' }, { src: 'changes' }, { src: 'gate' }, { src: 'feed' }],
    on: {
      LIST: {
        actions: enqueueActions(({ context, event, enqueue }) => {
          const open = spec.records(event.list);
          const { gone, newer, added } = rowChanges(context.rows, open);
          for (const ref of gone) enqueue.stopChild(ref);
          for (const { ref, record } of newer) enqueue.sendTo(ref as AnyActorRef, spec.update(record));
          enqueue.assign(({ spawn }) => {
            const rows: Record<number, Row> = {};
            for (const record of open) {
              const ref =
                context.rows[record.id]?.ref ??
                (spawn('row', { id: `row-${record.id}`, input: spec.rowInput(context.input, record) }) as Ref);
              rows[record.id] = { ref, record };
            }
            return { rows, ...listField(spec.listKey, event.list) } as Partial<Context>;
          });
          // A new row's machine starts stale, like the ticket; it learns the gate as the others did.
          if (context.fresh) {
            for (const record of added) {
              enqueue.sendTo(({ context: now }) => (now.rows[record.id] as Row).ref as AnyActorRef, {
                type: 'PRICES_FRESH',
              });
            }
          }
        }),
      },
      CHANGE: {
        actions: enqueueActions(({ context, event, enqueue }) => {
          enqueue.sendTo(context.ticket as AnyActorRef, spec.update(event.record));
        }),
      },
      PRICES_FRESH: { actions: 'tellGate' },
      PRICES_STALE: { actions: 'tellGate' },
      // Every machine hears it; only one with a submission waiting for its answer acts on it.
      RECONNECT: {
        actions: enqueueActions(({ context, enqueue }) => {
          enqueue.sendTo(context.ticket as AnyActorRef, { type: 'RECONNECT' });
          for (const row of Object.values<Row>(context.rows))
            enqueue.sendTo(row.ref as AnyActorRef, { type: 'RECONNECT' });
        }),
      },
    },
  });
}
