import { defer, filter, map, merge, type Observable, Subject, share, shareReplay } from 'rxjs';
import type { z } from 'zod';
import { pollOpenContracts } from '../../core/api/options';
import { serverNow } from '../../core/clock';
import {
  OPTIONS_TOPIC,
  type OptionContract,
  type OptionsTopicMessage,
  optionsTopicMessage,
} from '../../protocol/options';
import { pollBesideSocket } from '../polling';
import { type ConnectionState, type PrivateTopicMessage, realtime } from '../socket';

/**
 * The user's option contracts: the private `options` topic (a snapshot of the open contracts of both books, then
 * each changed contract) merged with polling of microtrade/lists (list=open, both books), often while the socket is
 * down and rarely while it is up. Per contract id the newer `updated_at` wins and repeats are dropped, so the two
 * paths can deliver in any order.
 */

/** What this stream needs of the tab's socket (RealtimeSocket, or a fake in tests). */
export interface ContractsSource {
  privateTopic<T>(name: string, schema: z.ZodType<T>): Observable<PrivateTopicMessage<T>>;
  readonly state$: Observable<ConnectionState>;
}

export const isOpenContract = (c: OptionContract): boolean => c.state === 'waiting' || c.state === 'running';

/** Whether `incoming` replaces `held`: a newer server update; the same or an older one is a repeat or late news. */
export const isNewerContract = (held: OptionContract | undefined, incoming: OptionContract): boolean =>
  !held || incoming.updated_at > held.updated_at;

/**
 * The contracts known so far by id. A full list of the open contracts (a topic snapshot or a poll) also drops the
 * open contracts it no longer holds, but only those last changed before the list was made: a contract bought while a
 * poll was on its way is missing from it without being closed.
 */
export class ContractBook {
  private readonly byId = new Map<number, OptionContract>();

  /** Folds one contract in; true when it changed what is known. */
  take(contract: OptionContract): boolean {
    if (!isNewerContract(this.byId.get(contract.id), contract)) return false;
    this.byId.set(contract.id, contract);
    return true;
  }

  /** Folds a full list of the open contracts as of server time `asOf`; see the class comment. */
  takeOpenList(contracts: readonly OptionContract[], asOf: number): { changed: OptionContract[]; dropped: boolean } {
    const listed = new Set(contracts.map((c) => c.id));
    const changed = contracts.filter((c) => this.take(c));
    let dropped = false;
    for (const [id, held] of this.byId) {
      if (isOpenContract(held) && !listed.has(id) && held.updated_at <= asOf) {
        this.byId.delete(id);
        dropped = true;
      }
    }
    return { changed, dropped };
  }

  /** Open contracts (both books), newest first. */
  open(): OptionContract[] {
    return [...this.byId.values()].filter(isOpenContract).sort((a, b) => b.created_at - a.created_at || b.id - a.id);
  }
}

export interface ContractStreamOptions {
  source: ContractsSource;
  /** One poll of the open contracts of both books; false when it failed. */
  poll: () => Promise<readonly OptionContract[] | false>;
  pollWhileUpMs?: number;
  pollWhileDownMs?: number;
  /** Server time now (core/clock.ts), to date a poll's list. */
  now?: () => number;
}

export type ContractChange = { kind: 'contract'; contract: OptionContract } | { kind: 'closed' };

export interface ContractStream {
  /** The open contracts (waiting and running) of both books, newest first; shared, replayed to late observers. */
  readonly open$: Observable<OptionContract[]>;
  /** Each contract as it changes (bought, entered, settled), once per change; flows while `open$` is observed. */
  readonly changes$: Observable<ContractChange>;
}

/** `full`: a whole list came, so the view learns it is loaded even when nothing changed. */
type Batch = { changed: OptionContract[]; dropped: boolean; full: boolean };

export function createContractStream(options: ContractStreamOptions): ContractStream {
  const now = options.now ?? serverNow;
  const changes = new Subject<ContractChange>();
  const open$ = defer(() => {
    const book = new ContractBook();

    const pushed$ = options.source.privateTopic(OPTIONS_TOPIC, optionsTopicMessage).pipe(
      map(({ data, ts }: { data: OptionsTopicMessage; ts: number }): Batch => {
        if (data.kind === 'snapshot') return { ...book.takeOpenList(data.contracts, ts), full: true };
        return { changed: book.take(data.contract) ? [data.contract] : [], dropped: false, full: false };
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
        for (const contract of batch.changed) changes.next({ kind: 'contract', contract });
        if (batch.dropped) changes.next({ kind: 'closed' });
        return batch.full || batch.changed.length > 0 || batch.dropped;
      }),
      map(() => book.open()),
    );
  }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
  return { open$, changes$: changes.pipe(share()) };
}

let shared: ContractStream | undefined;

/** The tab's contract stream, created on first use and shared by every view. */
export function optionContracts(): ContractStream {
  shared ??= createContractStream({ source: realtime(), poll: pollOpenContracts });
  return shared;
}
