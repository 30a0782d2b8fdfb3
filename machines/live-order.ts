import { map, merge, Observable } from 'rxjs';
import { type EventObject, fromEventObservable } from 'xstate';

/**
 * What feeds one order's machine on its page (IEO subscription, C2C order), as the actor the machine invokes at its
 * root: every newer copy of the order (the order's stream, and the copies the page loads), and each step of the
 * server clock's offset (a countdown's deadline is judged on server time, so a corrected clock must reach the
 * machine). The machine decides what a copy is worth; this only delivers.
 */

/** A change of the server-time offset smaller than this is noise, not a clock step worth re-judging deadlines for. */
export const CLOCK_STEP_MS = 250;

/** What the feed needs of the server clock (core/clock.ts serverClock, or a test's). */
export interface OffsetSource {
  offset(): number;
  readonly offset$: Observable<number>;
}

/** The clock's offset each time it has moved by `min` ms or more since the last step told (or since subscribing). */
export function clockSteps(clock: OffsetSource, min = CLOCK_STEP_MS): Observable<number> {
  return new Observable<number>((subscriber) => {
    let told = clock.offset();
    return clock.offset$.subscribe((offset) => {
      if (Math.abs(offset - told) < min) return;
      told = offset;
      subscriber.next(offset);
    });
  });
}

export interface LiveOrderFeed<O, E> {
  /** Copies of the order: its stream's, and any the page loads. */
  copies$: Observable<O>;
  clock: OffsetSource;
  /** The machine's event for a copy. */
  order: (order: O) => E;
  /** The machine's event for a clock step. */
  clockStep: (offset: number) => E;
}

export function liveOrderEvents<O, E>(feed: LiveOrderFeed<O, E>): Observable<E> {
  return merge(feed.copies$.pipe(map(feed.order)), clockSteps(feed.clock).pipe(map(feed.clockStep)));
}

/** The `live` actor an order machine invokes, for the order of the id it is given. */
export function liveOrder<O, E extends EventObject>(feedOf: (id: number) => LiveOrderFeed<O, E>) {
  return fromEventObservable<E, { id: number }>(({ input }) => liveOrderEvents(feedOf(input.id)));
}
