import { defer, distinctUntilChanged, filter, map, merge, type Observable, Subject, share, shareReplay } from 'rxjs';
import { type C2cOpenPoll, pollOpenC2cOrders } from '../../core/api/c2c';
import { serverNow } from '../../core/clock';
import { C2C_TOPIC, type C2cOrder, c2cTopicMessage } from '../../protocol/c2c';
import { pollBesideSocket } from '../polling';
import type { PrivateRecordsSource } from '../private-records';
import { realtime } from '../socket';
import { isNewerC2cOrder, isOpenC2cOrder } from './news';

/**
 * The user's C2C orders, both sides: the private `c2c` topic (`me:c2c`: a snapshot of the open orders, then each
 * changed order, for its buyer and its merchant alike) merged with polling of ctc/order/list (the open orders), often
 * while the socket is down and rarely while it is up, like streams/ieo/subscriptions.ts. An order carries no
 * `updated_at`: per id the later status wins (streams/c2c/news.ts) and repeats are dropped, so the two paths can
 * deliver in any order. A full list of the open orders (a snapshot, or a poll that holds a whole side) also drops the
 * open orders it no longer holds that were made before it: they ended unseen (the socket was down), so the views ask
 * for them again.
 */

export type C2cRole = C2cOrder['role'];

/** What this stream needs of the tab's socket (RealtimeSocket, or a fake in tests). */
export type C2cOrdersSource = PrivateRecordsSource;

/** Every order known so far, by id: open ones and the ones seen ending. */
export class C2cOrderBook {
  private readonly byId = new Map<number, C2cOrder>();

  /** Folds one copy in; true when it changed what is known. */
  take(order: C2cOrder): boolean {
    if (!isNewerC2cOrder(this.byId.get(order.id), order)) return false;
    this.byId.set(order.id, order);
    return true;
  }

  /**
   * Folds a full list of the open orders of the sides in `complete`, as of server time `asOf`: returns the orders
   * that changed, and the ids of open orders of those sides that the list lacks although they existed when it was
   * made (they ended meanwhile; the end itself was missed). Those leave the book.
   */
  takeOpenList(
    orders: readonly C2cOrder[],
    complete: readonly C2cRole[],
    asOf: number,
  ): { changed: C2cOrder[]; dropped: number[] } {
    const listed = new Set(orders.map((o) => o.id));
    const changed = orders.filter((o) => this.take(o));
    const dropped: number[] = [];
    for (const [id, held] of this.byId) {
      if (isOpenC2cOrder(held) && complete.includes(held.role) && !listed.has(id) && held.created_at <= asOf) {
        this.byId.delete(id);
        dropped.push(id);
      }
    }
    return { changed, dropped };
  }

  get(id: number): C2cOrder | undefined {
    return this.byId.get(id);
  }

  /** Every order known, newest first. */
  all(): C2cOrder[] {
    return [...this.byId.values()].sort((a, b) => b.created_at - a.created_at || b.id - a.id);
  }
}

/** One change the views hear of: an order that changed, or an open order that ended unseen (ask for it again). */
export type C2cChange = { kind: 'order'; order: C2cOrder } | { kind: 'dropped'; id: number };

export interface C2cOrderStreamOptions {
  source: C2cOrdersSource;
  /** One poll of the open orders (ctc/order/list); false when it failed. */
  poll: () => Promise<C2cOpenPoll | false>;
  pollWhileUpMs?: number;
  pollWhileDownMs?: number;
  /** Server time now (core/clock.ts), to date a poll's list. */
  now?: () => number;
}

export interface C2cOrderStream {
  /**
   * Every order known, newest first (the open ones, and those seen ending while observed); the first value comes
   * with the topic's snapshot or the first poll (an empty list then means the user has no open order). Shared,
   * replayed to late observers.
   */
  readonly orders$: Observable<C2cOrder[]>;
  /** Each change, once; flows while `orders$` is observed (one topic, one poller). */
  readonly changes$: Observable<C2cChange>;
  /**
   * One order as the stream knows it: its current copy (replayed) and each newer one, for its machine. It observes
   * `orders$` itself, so it keeps the topic and the poller going.
   */
  order$(id: number): Observable<C2cOrder>;
  /** Polls once now (pull-to-refresh) and folds the answer in; resolves when it is in (false: the poll failed). */
  refresh(): Promise<boolean>;
}

/** `full`: a whole list came, so the view learns it is loaded even when nothing changed. */
type Batch = { changed: C2cOrder[]; dropped: number[]; full: boolean };

const BOTH_SIDES: readonly C2cRole[] = ['buyer', 'merchant'];

export function createC2cOrderStream(options: C2cOrderStreamOptions): C2cOrderStream {
  const now = options.now ?? serverNow;
  const changes = new Subject<C2cChange>();
  const refreshed = new Subject<{ poll: C2cOpenPoll; askedAt: number }>();
  // Dated when it is asked for: an order made later may be missing from it without having ended.
  const datedPoll = async () => {
    const askedAt = now();
    const poll = await options.poll();
    return poll === false ? false : { poll, askedAt };
  };
  const orders$ = defer(() => {
    const book = new C2cOrderBook();
    const fromPoll = ({ poll, askedAt }: { poll: C2cOpenPoll; askedAt: number }): Batch => ({
      ...book.takeOpenList(poll.orders, poll.complete, askedAt),
      full: true,
    });
    const pushed$ = options.source.privateTopic(C2C_TOPIC, c2cTopicMessage).pipe(
      map(({ data, ts }): Batch => {
        if (data.kind === 'snapshot') return { ...book.takeOpenList(data.orders, BOTH_SIDES, ts), full: true };
        return { changed: book.take(data.order) ? [data.order] : [], dropped: [], full: false };
      }),
    );
    const polled$ = pollBesideSocket(options.source.state$, datedPoll, {
      whileUpMs: options.pollWhileUpMs,
      whileDownMs: options.pollWhileDownMs,
    }).pipe(map(fromPoll));
    const asked$ = refreshed.pipe(map(fromPoll));
    return merge(pushed$, polled$, asked$).pipe(
      filter((batch) => {
        for (const order of batch.changed) changes.next({ kind: 'order', order });
        for (const id of batch.dropped) changes.next({ kind: 'dropped', id });
        return batch.full || batch.changed.length > 0 || batch.dropped.length > 0;
      }),
      map(() => book.all()),
    );
  }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
  return {
    orders$,
    changes$: changes.pipe(share()),
    order$: (id) =>
      orders$.pipe(
        map((list) => list.find((o) => o.id === id)),
        filter((o): o is C2cOrder => o !== undefined),
        distinctUntilChanged(),
      ),
    refresh: async () => {
      const dated = await datedPoll();
      if (dated === false) return false;
      refreshed.next(dated);
      return true;
    },
  };
}

let shared: C2cOrderStream | undefined;
/** Whether the shared stream's poll also asks for the merchant's side (once a page learned the user is one). */
let merchantSide = false;

/**
 * The tab's C2C order stream, created on first use and shared by every view. `merchant: true` (a page that knows the
 * user is a merchant) makes its poll ask for the merchant's side too; the topic carries both sides anyway.
 */
export function c2cOrders(options: { merchant?: boolean } = {}): C2cOrderStream {
  if (options.merchant) merchantSide = true;
  shared ??= createC2cOrderStream({ source: realtime(), poll: () => pollOpenC2cOrders(merchantSide) });
  return shared;
}
