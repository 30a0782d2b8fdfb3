import { defer, filter, map, merge, type Observable, Subject, share, shareReplay } from 'rxjs';
import type { z } from 'zod';
import { pollOpenOrders } from '../../core/api/spot';
import { serverNow } from '../../core/clock';
import { ORDERS_TOPIC, type OrdersTopicMessage, ordersTopicMessage, type SpotOrder } from '../../protocol/spot';
import { pollBesideSocket } from '../polling';
import { type ConnectionState, type PrivateTopicMessage, realtime } from '../socket';

/**
 * The user's spot orders: the private `orders` topic (a snapshot of the open orders, then each changed order)
 * merged with polling of coin/trade/list (list=open), often while the socket is down and rarely while it is up.
 * Per order id the newer `updated_at` wins and repeats are dropped, so the two paths can deliver in any order.
 */

/** What this stream needs of the tab's socket (RealtimeSocket, or a fake in tests). */
export interface OrdersSource {
  privateTopic<T>(name: string, schema: z.ZodType<T>): Observable<PrivateTopicMessage<T>>;
  readonly state$: Observable<ConnectionState>;
}

export const isOpenOrder = (order: SpotOrder): boolean => order.state === 'waiting' || order.state === 'pending';

/** Whether `incoming` replaces `held`: a newer server update; the same or an older one is a repeat or late news. */
export const isNewerOrder = (held: SpotOrder | undefined, incoming: SpotOrder): boolean =>
  !held || incoming.updated_at > held.updated_at;

/**
 * The orders known so far by id. A full list of open orders (a topic snapshot or a poll) also closes the open orders
 * it no longer holds, but only those last changed before the list was made: an order placed while a poll was on its
 * way is missing from it without being closed.
 */
export class OrderBook {
  private readonly byId = new Map<number, SpotOrder>();

  /** Folds one order in; true when it changed what is known. */
  take(order: SpotOrder): boolean {
    if (!isNewerOrder(this.byId.get(order.id), order)) return false;
    this.byId.set(order.id, order);
    return true;
  }

  /**
   * Folds a full list of the open orders as of server time `asOf`; returns the orders that changed and whether any
   * open order left the book without news of its end (it closed meanwhile: its final state comes with the history).
   */
  takeOpenList(orders: readonly SpotOrder[], asOf: number): { changed: SpotOrder[]; dropped: boolean } {
    const listed = new Set(orders.map((o) => o.id));
    const changed = orders.filter((o) => this.take(o));
    let dropped = false;
    for (const [id, held] of this.byId) {
      if (isOpenOrder(held) && !listed.has(id) && held.updated_at <= asOf) {
        this.byId.delete(id);
        dropped = true;
      }
    }
    return { changed, dropped };
  }

  /** Open orders, newest first. */
  open(): SpotOrder[] {
    return [...this.byId.values()].filter(isOpenOrder).sort((a, b) => b.created_at - a.created_at || b.id - a.id);
  }
}

export interface OrderStreamOptions {
  source: OrdersSource;
  /** One poll of the open orders; false when it failed. */
  poll: () => Promise<readonly SpotOrder[] | false>;
  pollWhileUpMs?: number;
  pollWhileDownMs?: number;
  /** Server time now (core/clock.ts), to date a poll's list. */
  now?: () => number;
}

export interface OrderStream {
  /** The open orders (waiting and pending), newest first; shared, replayed to late observers. */
  readonly open$: Observable<SpotOrder[]>;
  /**
   * Each order as it changes (new, filled, cancelled), once per change; `closed` when open orders left unseen. It
   * flows while `open$` is observed (the two share one topic and one poller).
   */
  readonly changes$: Observable<OrderChange>;
}

export type OrderChange = { kind: 'order'; order: SpotOrder } | { kind: 'closed' };

/** `full`: a whole list of the open orders came, so the view learns it is loaded even when nothing changed. */
type Batch = { changed: SpotOrder[]; dropped: boolean; full: boolean };

export function createOrderStream(options: OrderStreamOptions): OrderStream {
  const now = options.now ?? serverNow;
  const changes = new Subject<OrderChange>();
  const open$ = defer(() => {
    const book = new OrderBook();

    const pushed$ = options.source.privateTopic(ORDERS_TOPIC, ordersTopicMessage).pipe(
      map(({ data, ts }: { data: OrdersTopicMessage; ts: number }): Batch => {
        if (data.kind === 'snapshot') return { ...book.takeOpenList(data.orders, ts), full: true };
        return { changed: book.take(data.order) ? [data.order] : [], dropped: false, full: false };
      }),
    );

    const polled$ = defer(() =>
      pollBesideSocket(
        options.source.state$,
        async () => {
          // Dated when it is asked for: anything the server changed later may be missing from it.
          const askedAt = now();
          const list = await options.poll();
          return list === false ? false : { list, askedAt };
        },
        { whileUpMs: options.pollWhileUpMs, whileDownMs: options.pollWhileDownMs },
      ).pipe(map(({ list, askedAt }): Batch => ({ ...book.takeOpenList(list, askedAt), full: true }))),
    );

    return merge(pushed$, polled$).pipe(
      filter((batch) => {
        for (const order of batch.changed) changes.next({ kind: 'order', order });
        if (batch.dropped) changes.next({ kind: 'closed' });
        return batch.full || batch.changed.length > 0 || batch.dropped;
      }),
      map(() => book.open()),
    );
  }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
  return { open$, changes$: changes.pipe(share()) };
}

let shared: OrderStream | undefined;

/** The tab's order stream, created on first use and shared by every view. */
export function spotOrders(): OrderStream {
  shared ??= createOrderStream({ source: realtime(), poll: pollOpenOrders });
  return shared;
}
