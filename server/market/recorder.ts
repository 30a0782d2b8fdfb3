import type { DatabaseHandle } from '../platform/db/connect';
import type { NewPriceTick } from '../platform/db/schema';
import type { Job } from '../platform/jobs/runner';
import type { MarketFeed } from './feed';
import { formatUnits } from './instruments';

export interface RecorderOptions {
  /** How often buffered prices are written (one batch insert per flush). */
  flushMs?: number;
  /** Rows older than this are deleted (checked once a minute). */
  retentionMs?: number;
  now?: () => number;
  onError?: (err: unknown) => void;
}

/** Rows per insert statement: well under SQLite's bound-parameter limit (5 columns per row). */
const BATCH = 500;

/**
 * Writes every published price to `price_ticks` so a settlement can be checked later. Prices are buffered and
 * written in batches (by default once a second) to keep the write cost low; retention bounds the table.
 */
export class PriceRecorder {
  private buffer: NewPriceTick[] = [];
  /** Told by the job that another process writes the record: this one writes nothing, not even when closing. */
  private following = false;
  private flushing: Promise<void> = Promise.resolve();
  private lastPrune = 0;
  private readonly unsubscribe: () => void;
  private readonly flushMs: number;
  private readonly retentionMs: number;
  private readonly now: () => number;

  constructor(
    private readonly database: DatabaseHandle,
    feed: MarketFeed,
    private readonly options: RecorderOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 1_000;
    this.retentionMs = options.retentionMs ?? 3 * 86_400_000;
    this.now = options.now ?? Date.now;
    this.unsubscribe = feed.onTick((tick) => {
      const instrument = feed.instrument(tick.symbol);
      if (!instrument) return;
      this.buffer.push({
        instrument_id: tick.instrumentId,
        symbol: tick.symbol,
        ts: tick.ts,
        price: formatUnits(tick.price, instrument.priceScale),
        seq: tick.seq,
      });
    });
  }

  get pending(): number {
    return this.buffer.length;
  }

  /**
   * Writing the record is a cluster job: with several processes sharing one market, only the lease holder writes
   * (the others drop what they buffered, or every tick would be recorded once per process).
   */
  job(): Job {
    return {
      name: 'price-record',
      scope: 'cluster',
      everyMs: this.flushMs,
      runWhenFollowing: true,
      run: ({ leading }) => {
        this.following = !leading;
        return leading ? this.flush() : this.drop();
      },
    };
  }

  /** Forgets what is buffered (a process that does not write the record). */
  drop(): void {
    this.buffer = [];
  }

  /** Writes what is buffered; flushes run one after another, never in parallel. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  /** Stops listening and writes what is left. */
  async close(): Promise<void> {
    this.unsubscribe();
    if (this.following) this.drop();
    else await this.flush();
  }

  private async write(): Promise<void> {
    const rows = this.buffer;
    this.buffer = [];
    try {
      if (rows.length) {
        await this.database.db.transaction().execute(async (trx) => {
          for (let k = 0; k < rows.length; k += BATCH) {
            await trx
              .insertInto('price_ticks')
              .values(rows.slice(k, k + BATCH))
              .execute();
          }
        });
      }
      const now = this.now();
      if (now - this.lastPrune >= 60_000) {
        this.lastPrune = now;
        await this.database.db
          .deleteFrom('price_ticks')
          .where('ts', '<', now - this.retentionMs)
          .execute();
      }
    } catch (err) {
      this.options.onError?.(err);
    }
  }
}
