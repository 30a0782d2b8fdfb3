import type { Observable } from 'rxjs';
import { type Actor, createActor, type InspectionEvent } from 'xstate';
import type { OrderChange, OrderStream } from '../../streams/spot/orders';
import { bookSources } from '../live-book';
import { spotBookMachine } from './book.machine';
import type { spotOrderMachine } from './order.machine';

/** What the live spot book is made of: the app's streams and calls (or a test's subjects). */
export interface SpotLiveSources {
  /** The user's open orders and their changes (streams/spot/orders.ts spotOrders). */
  orders: Pick<OrderStream, 'open$' | 'changes$'>;
  /** Whether prices are fresh enough to trade (streams/freshness.ts tradingGate). */
  fresh$: Observable<boolean>;
  /** Each return of the socket after a drop: a submission left waiting asks again (streams/socket.ts). */
  reconnected$?: Observable<unknown>;
  /** The ticket's order machine with the real placement and cancellation calls. */
  ticket: typeof spotOrderMachine;
  /** An open order's machine: the real cancellation, whose result the app also says (the row leaves at once). */
  row: typeof spotOrderMachine;
  makeId: () => string;
  /** Told each order change once, after the machines were: the page's refreshes. */
  onChange?: (change: OrderChange) => void;
  /** XState inspection of the whole book (the QA traces of its order machines). */
  inspect?: (event: InspectionEvent) => void;
}

export interface SpotLive {
  readonly actor: Actor<typeof spotBookMachine>;
  stop(): void;
}

/**
 * Starts the live path of the user's spot orders outside React: the book machine with its sources. The page starts it
 * when it mounts, draws what it holds, and stops it when it leaves.
 */
export function startSpotLive(sources: SpotLiveSources): SpotLive {
  const machine = spotBookMachine.provide({
    actors: {
      row: sources.row,
      ticket: sources.ticket,
      ...bookSources({
        list$: sources.orders.open$,
        changes$: sources.orders.changes$,
        recordOf: (change) => (change.kind === 'order' ? change.order : null),
        onChange: sources.onChange,
        fresh$: sources.fresh$,
        reconnected$: sources.reconnected$,
      }),
    },
  });
  const actor = createActor(machine, {
    input: { makeId: sources.makeId },
    ...(sources.inspect ? { inspect: sources.inspect } : {}),
  });
  actor.start();
  return { actor, stop: () => actor.stop() };
}
