import type { Kysely } from 'kysely';
import type { Ledger } from '../ledger';
import { formatUnits, type MarketFeed } from '../market';
import type { DatabaseHandle } from '../platform/db/connect';
import type { Database } from '../platform/db/schema';
import { writeTransaction } from '../platform/db/transaction';
import type { Job } from '../platform/jobs/runner';
import { type EngineTick, TickWindow } from './tick-window';

/** What every product's engine is given. */
export interface EngineOptions {
  database: DatabaseHandle;
  ledger: Ledger;
  /** Every process's live ticks (the market feed). */
  feed: Pick<MarketFeed, 'onTick'>;
  now?: () => number;
  onError?: (err: unknown) => void;
  /** How often the leading process runs a round: finds work accepted elsewhere, expires waits (ms). Default 100. */
  everyMs?: number;
  /**
   * Steps per transaction when many apply at once (group commit). Default 500: spot fills settle set-based
   * (`fillMany`), so a commit (an fsync, ~10 ms on SQLite here) came to a quarter of a burst at 200 per transaction,
   * while 500 fills hold the write lock for only about 80 ms.
   */
  batchSize?: number;
}

/**
 * The engines alive in this process. Test-facing only: the integration harness picks out the engines of the app it
 * built, so a test waits for their rounds (`afterRounds`) instead of sleeping and hoping. Nothing in the product reads
 * it.
 */
const alive = new Set<EngineLoop>();

/** The engines alive in this process (tests; see `alive`). */
export function liveEngines(): readonly EngineLoop[] {
  return [...alive];
}

/** What a product's engine is: its cluster job and the instruments it trades. */
export interface EngineKind {
  /** The cluster job's name, and so its lease: one process at a time acts. */
  name: string;
  /** The product's instrument of a symbol (its price scale); ticks of other symbols are ignored. */
  instrument: (symbol: string) => { priceScale: number } | undefined;
}

/**
 * The machinery every product's engine (spot, options) shares (DESIGN "The trading engine"): every process sees
 * every tick and keeps the last seconds of them in the window; only the process holding the job's lease acts. Every
 * piece of work (a tick, a round, an order accepted here) runs in one promise chain, so ticks and rounds never
 * interleave. A product extends it with its own logic (entry waits, trigger book, settlement) in the three callbacks.
 */
export abstract class EngineLoop {
  /** The recent ticks, filled in every process (leading or not), so a new leader knows ticks that went by. */
  protected readonly window = new TickWindow();
  protected readonly now: () => number;
  private readonly batchSize: number;
  private lead = false;
  private chain: Promise<void> = Promise.resolve();
  private readonly unsubscribe: () => void;
  /** Rounds queued and finished so far, and who waits for which (tests: `afterRounds`). */
  private roundsQueued = 0;
  private roundsDone = 0;
  private roundWaiters: Array<{ round: number; resolve: () => void }> = [];

  constructor(
    private readonly kind: EngineKind,
    protected readonly options: EngineOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.batchSize = options.batchSize ?? 500;
    alive.add(this);
    this.unsubscribe = options.feed.onTick((raw) => {
      const instrument = kind.instrument(raw.symbol);
      if (!instrument) return;
      const tick: EngineTick = {
        symbol: raw.symbol,
        seq: raw.seq,
        ts: raw.ts,
        price: formatUnits(raw.price, instrument.priceScale),
        units: BigInt(raw.price),
      };
      this.window.push(tick);
      if (!this.lead) return;
      const work = this.tickWork(tick);
      if (work) this.enqueue(work);
    });
  }

  /**
   * A tick while this process leads, called as it arrives: the work it calls for, run in the chain, or nothing. The
   * product decides what to do at once and what in the chain (options releases its waits at once, spot in the chain).
   */
  protected abstract tickWork(tick: EngineTick): (() => Promise<void>) | undefined;

  /** One round of the cluster job while this process leads, run in the chain. */
  protected abstract leadRound(): Promise<void>;

  /**
   * Forget what was kept in memory for leading: called when another process leads, when the engine closes, and in
   * the chain before the first round of a new lead (work still queued from an earlier lead may have refilled it).
   */
  protected abstract forget(): void;

  /** Whether this process leads: true from the start of its first round under the lease until it is lost. */
  protected get leading(): boolean {
    return this.lead;
  }

  /** The cluster job: a round in the chain where this process holds the lease, a follow where it does not. */
  job(): Job {
    return {
      name: this.kind.name,
      scope: 'cluster',
      everyMs: this.options.everyMs ?? 100,
      runWhenFollowing: true,
      run: ({ leading }) => {
        if (!leading) {
          this.follow();
          return;
        }
        const number = ++this.roundsQueued;
        return this.enqueue(() => this.round()).then(() => this.roundDone(number));
      },
    };
  }

  /** Waits for the work queued so far (tests). */
  idle(): Promise<void> {
    return this.chain;
  }

  /** The cluster job's name, e.g. 'lever-engine' (tests tell an app's engines apart by it). */
  get name(): string {
    return this.kind.name;
  }

  /**
   * Resolves once `count` rounds queued after this call have run (tests). A round is queued only where this process
   * leads, and runs in the chain behind every tick and order queued before it: after it, the engine leads and has
   * acted on everything that came before the call. The event a "nothing happened" check waits for.
   */
  afterRounds(count = 1): Promise<void> {
    const round = this.roundsQueued + count;
    return new Promise((resolve) => this.roundWaiters.push({ round, resolve }));
  }

  close(): void {
    alive.delete(this);
    this.unsubscribe();
    this.follow();
  }

  /** Queues work behind everything queued so far; a failure is reported and the chain goes on. */
  protected enqueue(work: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(work).catch((err) => this.options.onError?.(err));
    return this.chain;
  }

  /** Queues work only while this process leads (an order accepted here: watched at once, not at the next round). */
  protected whileLeading(work: () => Promise<void>): void {
    if (this.lead) this.enqueue(work);
  }

  /**
   * Writes steps many per transaction (group commit: one fsync for a whole batch). A failing batch runs again one
   * step per transaction: one bad order or contract must not hold up the others, and each failure is reported.
   */
  protected async commit<S>(steps: readonly S[], write: BatchWrite<S>): Promise<void> {
    for (let k = 0; k < steps.length; k += this.batchSize) {
      const batch = steps.slice(k, k + this.batchSize);
      try {
        await writeTransaction(this.options.database, (trx) => write.batch(trx, batch));
      } catch (err) {
        this.options.onError?.(err);
        for (const step of batch) {
          try {
            await writeTransaction(this.options.database, (trx) => write.one(trx, step));
          } catch (single) {
            this.options.onError?.(single);
          }
        }
      }
    }
  }

  private async round(): Promise<void> {
    // Taking the lead: first drop what queued work of an earlier lead left in memory, then rebuild from the database.
    if (!this.lead) {
      this.forget();
      this.lead = true;
    }
    await this.leadRound();
  }

  private roundDone(number: number): void {
    this.roundsDone = Math.max(this.roundsDone, number);
    const due = this.roundWaiters.filter((w) => w.round <= this.roundsDone);
    if (due.length === 0) return;
    this.roundWaiters = this.roundWaiters.filter((w) => w.round > this.roundsDone);
    for (const waiter of due) waiter.resolve();
  }

  private follow(): void {
    this.lead = false;
    this.forget();
  }
}

/** How `commit` writes a batch of steps, and one step alone. */
export interface BatchWrite<S> {
  batch: (trx: Kysely<Database>, steps: readonly S[]) => Promise<void>;
  one: (trx: Kysely<Database>, step: S) => Promise<void>;
}
