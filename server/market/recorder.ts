import type { DatabaseHandle } from '../platform/db/connect';
import { writeTransaction } from '../platform/db/transaction';
import type { Job } from '../platform/jobs/runner';
import type { MarketFeed } from './feed';
import { formatUnits } from './instruments';
import { pruneTicks, SEAL_ORPHANS_AFTER_MS, sealBatch } from './price-chain';
import type { NewPriceTick } from './tables';

export interface RecorderOptions {
  /** How often buffered prices are written (one batch insert per flush). */
  flushMs?: number;
  /** Rows older than this are deleted (checked once a minute). */
  retentionMs?: number;
  now?: () => number;
  onError?: (err: unknown) => void;
  /** A pinned tick still unsealed after this long is sealed into the next batch (default 5 s). */
  sealOrphansAfterMs?: number;
  /**
   * How long a process that does not write the record keeps the ticks it saw (ms of `now`, default 60 s): when the
   * writer dies, its successor writes them, so the ticks the dead writer had not flushed yet are recorded too.
   */
  keepWhileFollowingMs?: number;
}

/** A tick waiting to be written, with when this process saw it. */
interface Buffered {
  row: NewPriceTick;
  seenAt: number;
}

/** Ticks kept for a retry while writes fail: a few minutes of a busy feed. */
const MAX_BUFFER = 200_000;

/**
 * Writes every published price to `price_ticks` so a settlement can be checked later. Prices are buffered and
 * written in batches (by default once a second) to keep the write cost low; each flush is one link of the hash
 * chain (`price_batches`, see price-chain.ts), written in the same transaction as its ticks. Retention bounds the
 * table but keeps batches that hold a pinned tick.
 */
export class PriceRecorder {
  private buffer: Buffered[] = [];
  /** Told by the job that another process writes the record: this one writes nothing, not even when closing. */
  private following = false;
  private flushing: Promise<void> = Promise.resolve();
  private lastPrune = 0;
  private readonly unsubscribe: () => void;
  private readonly flushMs: number;
  private readonly retentionMs: number;
  private readonly now: () => number;
  private readonly sealOrphansAfterMs: number;
  private readonly keepWhileFollowingMs: number;

  constructor(
    private readonly database: DatabaseHandle,
    feed: MarketFeed,
    private readonly options: RecorderOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 1_000;
    this.retentionMs = options.retentionMs ?? 3 * 86_400_000;
    this.now = options.now ?? Date.now;
    this.sealOrphansAfterMs = options.sealOrphansAfterMs ?? SEAL_ORPHANS_AFTER_MS;
    this.keepWhileFollowingMs = options.keepWhileFollowingMs ?? 60_000;
    this.unsubscribe = feed.onTick((tick) => {
      const instrument = feed.instrument(tick.symbol);
      if (!instrument) return;
      this.buffer.push({
        row: {
          instrument_id: tick.instrumentId,
          symbol: tick.symbol,
          ts: tick.ts,
          price: formatUnits(tick.price, instrument.priceScale),
          seq: tick.seq,
          batch_id: null,
        },
        seenAt: this.now(),
      });
    });
  }

  get pending(): number {
    return this.buffer.length;
  }

  /**
   * Writing the record is a cluster job: with several processes sharing one market, only the lease holder writes.
   * The others keep the last `keepWhileFollowingMs` of ticks instead of dropping them: the holder writes a second's
   * ticks at a time, so when it dies (kill -9) the ticks it published since its last flush are in no record, while
   * every process's engines have seen them and may have settled on them. The process that takes the lease over
   * writes what it kept in its first batch (ticks already recorded keep their row and batch: sealBatch leaves a
   * sealed row alone), before any later tick is sealed, so "a sealed tick after E" still means every tick up to E
   * is recorded (the options engine settles on that).
   */
  job(): Job {
    return {
      name: 'price-record',
      scope: 'cluster',
      everyMs: this.flushMs,
      runWhenFollowing: true,
      run: ({ leading }) => {
        this.following = !leading;
        return leading ? this.flush() : this.keepRecent();
      },
    };
  }

  /** Forgets what is buffered (a process that does not write the record, closing). */
  drop(): void {
    this.buffer = [];
  }

  /** While another process writes the record: forgets only what was seen longer ago than a takeover takes. */
  private keepRecent(): void {
    const cutoff = this.now() - this.keepWhileFollowingMs;
    const first = this.buffer.findIndex((b) => b.seenAt >= cutoff);
    this.buffer = first < 0 ? [] : first === 0 ? this.buffer : this.buffer.slice(first);
    if (this.buffer.length > MAX_BUFFER) this.buffer = this.buffer.slice(-MAX_BUFFER);
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
      const now = this.now();
      // Runs with no ticks too: a pinned tick whose own flush was lost is sealed by a later flush.
      await writeTransaction(this.database, (trx) =>
        sealBatch(
          trx,
          rows.map((b) => b.row),
          now,
          this.sealOrphansAfterMs,
        ),
      );
    } catch (err) {
      // Keep them for the next flush (a busy database, a lost race for the batch number after a failover), but
      // never grow without bound while the database is down: the newest ticks win.
      this.buffer = [...rows, ...this.buffer].slice(-MAX_BUFFER);
      this.options.onError?.(err);
      return;
    }
    try {
      const now = this.now();
      if (now - this.lastPrune >= 60_000) {
        this.lastPrune = now;
        await pruneTicks(this.database.db, now - this.retentionMs);
      }
    } catch (err) {
      this.options.onError?.(err);
    }
  }
}
