import { defer, filter, finalize, map, merge, type Observable, Subject, share, shareReplay } from 'rxjs';
import type { z } from 'zod/mini';
import { serverNow } from '../core/clock';
import { pollBesideSocket } from './polling';
import type { ConnectionState, PrivateTopicMessage } from './socket';

/**
 * The user's records of one kind (spot orders, option contracts): a private topic (a snapshot of the open records,
 * then each changed record) merged with polling of the list call (the open records), often while the socket is down
 * and rarely while it is up. Per id the newer `updated_at` wins and repeats are dropped, so the two paths can deliver
 * in any order.
 */

/** What this module needs of a record: server times in ms, `updated_at` moving forward with every change. */
export interface PrivateRecord {
  id: number;
  created_at: number;
  updated_at: number;
}

/** What a record stream needs of the tab's socket (RealtimeSocket, or a fake in tests). */
export interface PrivateRecordsSource {
  privateTopic<T>(name: string, schema: z.ZodMiniType<T>): Observable<PrivateTopicMessage<T>>;
  readonly state$: Observable<ConnectionState>;
}

/** Whether `incoming` replaces `held`: a newer server update; the same or an older one is a repeat or late news. */
const isNewerRecord = <R extends PrivateRecord>(held: R | undefined, incoming: R): boolean =>
  !held || incoming.updated_at > held.updated_at;

/**
 * The records known so far by id. A full list of the open records (a topic snapshot or a poll) also drops the open
 * records it no longer holds, but only those last changed before the list was made: a record created while a poll
 * was on its way is missing from it without being closed.
 */
export class RecordBook<R extends PrivateRecord> {
  private readonly byId = new Map<number, R>();

  constructor(private readonly isOpen: (record: R) => boolean) {}

  /** Folds one record in; true when it changed what is known. */
  take(record: R): boolean {
    if (!isNewerRecord(this.byId.get(record.id), record)) return false;
    this.byId.set(record.id, record);
    return true;
  }

  /**
   * Folds a full list of the open records as of server time `asOf`; returns the records that changed and the ids of
   * the open records that left the book without news of their end (they closed meanwhile, e.g. while the socket was
   * down: their final state is asked for, see `fetchOne`).
   */
  takeOpenList(records: readonly R[], asOf: number): { changed: R[]; dropped: number[] } {
    const listed = new Set(records.map((r) => r.id));
    const changed = records.filter((r) => this.take(r));
    const dropped: number[] = [];
    for (const [id, held] of this.byId) {
      if (this.isOpen(held) && !listed.has(id) && held.updated_at <= asOf) {
        this.byId.delete(id);
        dropped.push(id);
      }
    }
    return { changed, dropped };
  }

  /** Open records, newest first. */
  open(): R[] {
    return [...this.byId.values()].filter(this.isOpen).sort((a, b) => b.created_at - a.created_at || b.id - a.id);
  }
}

/** A topic message as this module reads it: the full list of open records (a snapshot) or one changed record. */
export type TopicNews<R> = { open: readonly R[] } | { record: R };

/** One kind of record: its private topic, how to read the topic's messages, which records are open, its change. */
export interface RecordKind<R, M, C> {
  topic: string;
  schema: z.ZodMiniType<M>;
  read: (message: M) => TopicNews<R>;
  isOpen: (record: R) => boolean;
  /** The change `changes$` reports for a record that changed. */
  change: (record: R) => C;
}

/** Where a stream's records come from. */
export interface RecordStreamOptions<R> {
  source: PrivateRecordsSource;
  /** One poll of the open records (the list call); false when it failed. */
  poll: () => Promise<readonly R[] | false>;
  pollWhileUpMs?: number;
  pollWhileDownMs?: number;
  /** Server time now (core/clock.ts), to date a poll's list. */
  now?: () => number;
  /**
   * One record's latest state (its info call; false when it failed). A record that left the open list unseen is
   * asked for once, and its end reported as its change: a ticket whose order settled while the socket was down still
   * shows the result. Without it, or when the call fails, only `closed` is reported.
   */
  fetchOne?: (id: number) => Promise<R | false>;
}

export interface PrivateRecordStream<R, C> {
  /** The open records, newest first; shared, replayed to late observers. */
  readonly open$: Observable<R[]>;
  /**
   * Each record as it changes, once per change; `closed` when open records left unseen. It flows while `open$` is
   * observed (the two share one topic and one poller).
   */
  readonly changes$: Observable<C | { kind: 'closed' }>;
}

/** `full`: a whole list of the open records came, so the view learns it is loaded even when nothing changed. */
type Batch<R> = { changed: R[]; dropped: number[]; full: boolean };

export function createPrivateRecordStream<R extends PrivateRecord, M, C>(
  kind: RecordKind<R, M, C>,
  options: RecordStreamOptions<R>,
): PrivateRecordStream<R, C> {
  const now = options.now ?? serverNow;
  const changes = new Subject<C | { kind: 'closed' }>();
  const open$ = defer(() => {
    const book = new RecordBook<R>(kind.isOpen);

    const pushed$ = options.source.privateTopic(kind.topic, kind.schema).pipe(
      map(({ data, ts }): Batch<R> => {
        const news = kind.read(data);
        if ('open' in news) return { ...book.takeOpenList(news.open, ts), full: true };
        return { changed: book.take(news.record) ? [news.record] : [], dropped: [], full: false };
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
      ).pipe(map(({ list, askedAt }): Batch<R> => ({ ...book.takeOpenList(list, askedAt), full: true }))),
    );

    // The end of a record that left unseen: taken only when it has ended (a record still open comes back with the
    // next list), and only when newer than what the book learnt meanwhile. One call at a time (many records closed
    // while offline are not a burst of calls), and none taken once nobody observes the stream any more.
    let observed = true;
    let asking: Promise<void> = Promise.resolve();
    const askForEnd = (id: number) => {
      const fetchOne = options.fetchOne;
      if (!fetchOne) return;
      asking = asking.then(async () => {
        if (!observed) return;
        const record = await fetchOne(id).catch(() => false as const);
        if (observed && record && !kind.isOpen(record) && book.take(record)) changes.next(kind.change(record));
      });
    };

    return merge(pushed$, polled$).pipe(
      filter((batch) => {
        for (const record of batch.changed) changes.next(kind.change(record));
        if (batch.dropped.length > 0) {
          changes.next({ kind: 'closed' });
          for (const id of batch.dropped) askForEnd(id);
        }
        return batch.full || batch.changed.length > 0 || batch.dropped.length > 0;
      }),
      map(() => book.open()),
      finalize(() => {
        observed = false;
      }),
    );
  }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
  return { open$, changes$: changes.pipe(share()) };
}
