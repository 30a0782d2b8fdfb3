// @vitest-environment node
import { BehaviorSubject, Observable, Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, setup } from 'xstate';
import { bookSources, createBookMachine } from './live-book';

/**
 * What every product's book does whatever its rows are (machines/live-book.ts), with a row machine that only writes
 * down what it hears: a failing source or page callback leaves the book running, and the socket's return reaches
 * every machine.
 */

interface Rec {
  id: number;
}

type Heard =
  | { type: 'UPDATE'; record: Rec }
  | { type: 'PRICES_FRESH' }
  | { type: 'PRICES_STALE' }
  | { type: 'RECONNECT' };

const listener = setup({
  types: {} as { context: { heard: string[] }; input: { record: Rec | null }; events: Heard },
}).createMachine({
  context: { heard: [] },
  on: { '*': { actions: assign({ heard: ({ context, event }) => [...context.heard, event.type] }) } },
});

const testBook = createBookMachine({
  id: 'testBook',
  listKey: 'open',
  row: listener,
  records: (list: readonly Rec[]) => list,
  ticketInput: () => ({ record: null }),
  rowInput: (_input: Record<string, never>, record: Rec) => ({ record }),
  update: (record: Rec) => ({ type: 'UPDATE' as const, record }),
});

function rig(list$: Observable<readonly Rec[]>, onChange?: (change: Rec) => void) {
  const changes$ = new Subject<Rec>();
  const reconnected$ = new Subject<void>();
  const reported: unknown[] = [];
  const actor = createActor(
    testBook.provide({
      actors: {
        row: listener,
        ticket: listener,
        ...bookSources({
          list$,
          changes$,
          recordOf: (change: Rec) => change,
          onChange,
          fresh$: new BehaviorSubject(true),
          reconnected$,
          report: (error) => reported.push(error),
        }),
      },
    }),
    { input: {} },
  );
  actor.start();
  const heard = (ref: { getSnapshot(): { context: { heard: string[] } } } | undefined) =>
    ref?.getSnapshot().context.heard;
  return { actor, changes$, reconnected$, reported, heard };
}

describe('a live book', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports a failing source and subscribes to it again after a pause, the book running all along', () => {
    const broken = new Error('malformed message');
    let subscriptions = 0;
    const lists = new Subject<readonly Rec[]>();
    const list$ = new Observable<readonly Rec[]>((subscriber) => {
      subscriptions += 1;
      if (subscriptions === 1) {
        subscriber.error(broken);
        return undefined;
      }
      return lists.subscribe(subscriber);
    });
    const { actor, reported } = rig(list$);
    expect(reported).toEqual([broken]);
    expect(actor.getSnapshot().status).toBe('active');
    vi.advanceTimersByTime(499);
    expect(subscriptions).toBe(1);
    vi.advanceTimersByTime(1);
    expect(subscriptions).toBe(2);
    lists.next([{ id: 4 }]);
    expect(actor.getSnapshot().context.open).toEqual([{ id: 4 }]);
    actor.stop();
  });

  it('reports a page callback that throws, and the ticket still hears the change', () => {
    const broken = new Error('toast failed');
    const { actor, changes$, reported, heard } = rig(new BehaviorSubject<readonly Rec[]>([]), () => {
      throw broken;
    });
    changes$.next({ id: 9 });
    expect(reported).toEqual([broken]);
    expect(heard(actor.getSnapshot().context.ticket)).toContain('UPDATE');
    changes$.next({ id: 10 });
    expect(heard(actor.getSnapshot().context.ticket)?.filter((e) => e === 'UPDATE')).toHaveLength(2);
    actor.stop();
  });

  it("tells the socket's return to the ticket and every row", () => {
    const { actor, reconnected$, heard } = rig(new BehaviorSubject<readonly Rec[]>([{ id: 1 }, { id: 2 }]));
    reconnected$.next();
    const { ticket, rows } = actor.getSnapshot().context;
    expect(heard(ticket)).toContain('RECONNECT');
    expect(heard(rows[1]?.ref)).toContain('RECONNECT');
    expect(heard(rows[2]?.ref)).toContain('RECONNECT');
    actor.stop();
  });
});
