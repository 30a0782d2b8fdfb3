import { defer, distinctUntilChanged, filter, map, merge, type Observable, Subject, share, shareReplay } from 'rxjs';
import { pollMyIeoOrders } from '../../core/api/ieo';
import { IEO_TOPIC, type IeoOrder, ieoTopicMessage } from '../../protocol/ieo';
import { pollBesideSocket } from '../polling';
import type { PrivateRecordsSource } from '../private-records';
import { realtime } from '../socket';
import { isNewerIeoOrder } from './news';

/**
 * The user's IEO subscriptions: the private `ieo` topic (a snapshot of the newest subscriptions, then each changed
 * one: subscribed, allotted or failed, paid, lapsed, listed and locked, unlocked) merged with polling of ieo/myApply,
 * often while the socket is down and rarely while it is up, like streams/private-records.ts merges other records.
 * A subscription never goes away and carries no `updated_at`: per id the later phase wins (streams/ieo/news.ts) and
 * repeats are dropped, so the two paths can deliver in any order.
 */

/** What this stream needs of the tab's socket (RealtimeSocket, or a fake in tests). */
export type IeoOrdersSource = PrivateRecordsSource;

/** The subscriptions known so far, by id. */
export class IeoOrderBook {
  private readonly byId = new Map<number, IeoOrder>();

  /** Folds one copy in; true when it changed what is known. */
  take(order: IeoOrder): boolean {
    if (!isNewerIeoOrder(this.byId.get(order.id), order)) return false;
    this.byId.set(order.id, order);
    return true;
  }

  /** Folds a list in (a snapshot or a poll: the newest subscriptions); returns the ones that changed. */
  takeAll(orders: readonly IeoOrder[]): IeoOrder[] {
    return orders.filter((o) => this.take(o));
  }

  get(id: number): IeoOrder | undefined {
    return this.byId.get(id);
  }

  /** Every subscription known, newest first. */
  all(): IeoOrder[] {
    return [...this.byId.values()].sort((a, b) => b.apply_time - a.apply_time || b.id - a.id);
  }
}

export interface IeoOrderStreamOptions {
  source: IeoOrdersSource;
  /** One poll of the newest subscriptions (ieo/myApply); false when it failed. */
  poll: () => Promise<readonly IeoOrder[] | false>;
  pollWhileUpMs?: number;
  pollWhileDownMs?: number;
}

export interface IeoOrderStream {
  /**
   * Every subscription known, newest first; the first value comes with the topic's snapshot or the first poll (an
   * empty list then means the user has none). Shared, replayed to late observers.
   */
  readonly orders$: Observable<IeoOrder[]>;
  /** Each subscription as it changes, once per change; flows while `orders$` is observed (one topic, one poller). */
  readonly changes$: Observable<IeoOrder>;
  /**
   * One subscription as the stream knows it: its current copy (replayed) and each newer one, for its machine. It
   * observes `orders$` itself, so it keeps the topic and the poller going.
   */
  order$(id: number): Observable<IeoOrder>;
  /** Polls once now (pull-to-refresh) and folds the answer in; resolves when it is in (false: the poll failed). */
  refresh(): Promise<boolean>;
}

/** `full`: a whole list came, so the view learns it is loaded even when nothing changed. */
type Batch = { changed: IeoOrder[]; full: boolean };

export function createIeoOrderStream(options: IeoOrderStreamOptions): IeoOrderStream {
  const changes = new Subject<IeoOrder>();
  const refreshed = new Subject<readonly IeoOrder[]>();
  const orders$ = defer(() => {
    const book = new IeoOrderBook();
    const pushed$ = options.source.privateTopic(IEO_TOPIC, ieoTopicMessage).pipe(
      map(({ data }): Batch => {
        if (data.kind === 'snapshot') return { changed: book.takeAll(data.orders), full: true };
        return { changed: book.take(data.order) ? [data.order] : [], full: false };
      }),
    );
    const polled$ = pollBesideSocket(options.source.state$, options.poll, {
      whileUpMs: options.pollWhileUpMs,
      whileDownMs: options.pollWhileDownMs,
    }).pipe(map((list): Batch => ({ changed: book.takeAll(list), full: true })));
    const asked$ = refreshed.pipe(map((list): Batch => ({ changed: book.takeAll(list), full: true })));
    return merge(pushed$, polled$, asked$).pipe(
      filter((batch) => {
        for (const order of batch.changed) changes.next(order);
        return batch.full || batch.changed.length > 0;
      }),
      map(() => book.all()),
    );
  }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
  const changes$ = changes.pipe(share());
  return {
    orders$,
    changes$,
    order$: (id) =>
      orders$.pipe(
        map((list) => list.find((o) => o.id === id)),
        filter((o): o is IeoOrder => o !== undefined),
        distinctUntilChanged(),
      ),
    refresh: async () => {
      const list = await options.poll();
      if (list === false) return false;
      refreshed.next(list);
      return true;
    },
  };
}

let shared: IeoOrderStream | undefined;

/** The tab's IEO subscription stream, created on first use and shared by every view. */
export function ieoOrders(): IeoOrderStream {
  shared ??= createIeoOrderStream({ source: realtime(), poll: pollMyIeoOrders });
  return shared;
}
