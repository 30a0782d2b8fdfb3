import { distinctUntilChanged, map, type Observable, Subscription, switchMap } from 'rxjs';
import { type Actor, createActor, fromCallback, type InspectionEvent } from 'xstate';
import type { LeverAccount, LeverDeal, LeverPosition } from '../../protocol/lever';
import { type FrameCancel, type FrameRequest, latestPerFrame } from '../../streams/frame';
import { inBook, type Mark, type PositionChange, type PositionStream } from '../../streams/lever/positions';
import type { PositionsClient, PositionsUpdate } from '../../workers/lever/positions';
import { bookSources } from '../live-book';
import { sameRecords } from '../live-rows';
import { leverBookMachine } from './book.machine';
import { FigureBoard } from './figure-board';
import type { leverOrderMachine } from './order.machine';

/** What the live book is made of: the app's streams, worker and calls (or a test's subjects and fakes). */
export interface LeverLiveSources {
  /** The user's lever orders and positions (streams/lever/positions.ts leverPositions). */
  positions: Pick<PositionStream, 'open$' | 'changes$'>;
  /** lever/deal of the book: instruments and their scales, the cross wallet; each newer answer. */
  deal$: Observable<LeverDeal>;
  /** The marks of these symbols (streams/lever/positions.ts leverMarks). */
  marks: (symbols: readonly string[]) => Observable<Mark[]>;
  /** Whether prices are fresh enough to trade (streams/freshness.ts tradingGate). */
  fresh$: Observable<boolean>;
  /** Each return of the socket after a drop: a submission left waiting asks again (streams/socket.ts). */
  reconnected$?: Observable<unknown>;
  /**
   * Starts a positions worker (workers/lever/positions.ts). A promise: the app loads the worker's client (Comlink) beside
   * the page rather than with it, since the figures only matter once positions are shown.
   */
  startWorker: () => Promise<PositionsClient>;
  /** The order machine with the real calls. */
  order: typeof leverOrderMachine;
  makeId: () => string;
  /** Told each position change once, after the machines were: the page's news and refreshes. */
  onChange?: (change: PositionChange) => void;
  /** XState inspection of the whole book (the QA traces of its order machines). */
  inspect?: (event: InspectionEvent) => void;
  /** The frame loop (streams/frame.ts nextFrame by default; tests drive their own). */
  frame?: { request: FrameRequest; cancel: FrameCancel };
}

/** A running book: its actor (lists, gate, ticket and row machines) and the worker's figures, once a frame. */
export interface LeverLive {
  readonly book: LeverAccount;
  readonly actor: Actor<typeof leverBookMachine>;
  readonly figures: FigureBoard;
  stop(): void;
}

/**
 * Starts the live path of one lever book outside React: the book machine with its sources, and the positions
 * worker fed from the streams (the book's positions, the deal's instruments and wallet, the instruments' marks
 * gathered to one call per frame), its answers published to the figure board the rows read. A page starts it when
 * it mounts, draws what it holds, and stops it when it leaves.
 */
export function startLeverLive(book: LeverAccount, sources: LeverLiveSources): LeverLive {
  const figures = sources.frame
    ? new FigureBoard(book, sources.frame.request, sources.frame.cancel)
    : new FigureBoard(book);
  const lists$ = sources.positions.open$.pipe(
    inBook(book),
    // The other book's changes leave this one's lists as they were: no new rows, no worker call.
    distinctUntilChanged((a, b) => sameRecords(a.orders, b.orders) && sameRecords(a.positions, b.positions)),
  );

  const machine = leverBookMachine.provide({
    actors: {
      row: sources.order,
      ticket: sources.order,
      ...bookSources({
        list$: lists$,
        changes$: sources.positions.changes$,
        recordOf: (change) => (change.kind === 'position' ? change.position : null),
        onChange: sources.onChange,
        fresh$: sources.fresh$,
        reconnected$: sources.reconnected$,
      }),
      // The positions worker is the lever book's feed: it runs, and ends, with the book.
      feed: fromCallback(() => feedWorker(book, sources, lists$, figures)),
    },
  });

  const actor = createActor(machine, {
    input: { book, makeId: sources.makeId },
    ...(sources.inspect ? { inspect: sources.inspect } : {}),
  });
  actor.start();
  return {
    book,
    actor,
    figures,
    stop() {
      actor.stop();
      figures.dispose();
    },
  };
}

/** Runs the worker for the book; the returned function ends it (the book machine calls it when it stops). */
function feedWorker(
  book: LeverAccount,
  sources: LeverLiveSources,
  lists$: Observable<{ positions: LeverPosition[] }>,
  figures: FigureBoard,
): () => void {
  const subs = new Subscription();
  let client: PositionsClient | null = null;
  let stopped = false;
  sources.startWorker().then(
    (started) => {
      // A book left before its worker came up never feeds it.
      if (stopped) {
        started.dispose();
        return;
      }
      client = started;
      feed(started);
    },
    (err: unknown) => console.warn('positions worker', err),
  );
  const feed = (worker: PositionsClient) => {
    const apply = (call: Promise<PositionsUpdate>) =>
      void call.then(
        (update) => figures.apply(update),
        // A stopped worker's answers never come; anything else is logged and the next update carries on.
        (err: unknown) => console.warn('positions worker', err),
      );
    const instruments$ = sources.deal$.pipe(
      distinctUntilChanged((a, b) => a.instruments === b.instruments && a.scale === b.scale),
    );
    subs.add(instruments$.subscribe((deal) => apply(worker.setInstruments(deal.instruments, deal.scale))));
    subs.add(
      sources.deal$
        .pipe(
          map((deal) => deal.cross_wallet),
          distinctUntilChanged(),
        )
        .subscribe((wallet) => apply(worker.setWallets({ [book]: wallet }))),
    );
    subs.add(lists$.subscribe((lists) => apply(worker.setPositions(lists.positions))));
    // Every offered instrument's mark, as one list per frame (each list holds every symbol's newest mark): the
    // screen cannot show more, and each call's answer costs the main thread a structured clone.
    subs.add(
      instruments$
        .pipe(
          switchMap((deal) => sources.marks(deal.instruments.map((i) => i.symbol))),
          sources.frame
            ? latestPerFrame<Mark[]>(sources.frame.request, sources.frame.cancel)
            : latestPerFrame<Mark[]>(),
        )
        .subscribe((marks) => {
          if (marks.length > 0) apply(worker.applyMarks(marks));
        }),
    );
  };
  return () => {
    stopped = true;
    subs.unsubscribe();
    client?.dispose();
  };
}
