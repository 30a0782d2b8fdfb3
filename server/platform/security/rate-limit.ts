import { type Kysely, sql } from 'kysely';
import type { DatabaseHandle, DialectKind } from '../db/connect';
import type { Database } from '../db/schema';
import { writeTransaction } from '../db/transaction';

/** At most `max` events per `windowMs` in `bucket` (a sliding window). */
export interface Limit {
  bucket: string;
  max: number;
  windowMs: number;
}

/** The limit that refused a request and how long until it lets one through again. */
export interface Refusal {
  limit: Limit;
  retryAfterMs: number;
}

/**
 * Growing delays instead of a lock: the first `free` events within `windowMs` cost nothing; once there are n >= free,
 * the next one must wait baseMs * 2^(n - free), at most maxMs, after the newest (free 3, base 1 s: 1 s, 2 s, 4 s ...).
 */
export interface Backoff {
  free: number;
  baseMs: number;
  maxMs: number;
  windowMs: number;
}

export interface BackoffLimit extends Backoff {
  bucket: string;
  /**
   * The backoff holds only an attempt whose own source already has events in this bucket (within its window): a
   * limit over many sources then slows the sources that took part, never a newcomer (the owner on a fresh device).
   */
  onlyAfter?: { bucket: string; windowMs: number };
}

/** The backoff that asks a request to wait, and for how long. */
export interface Wait {
  limit: BackoffLimit;
  retryAfterMs: number;
}

/**
 * Rate limits counted in the database, so they hold across server processes and restarts.
 * Each counted event is a row; a limit looks at the rows of its bucket younger than its window.
 */
export class RateLimiter {
  private readonly db: Kysely<Database>;
  private readonly kind: DialectKind;

  constructor(
    private readonly handle: DatabaseHandle,
    private readonly now: () => number,
  ) {
    this.db = handle.db;
    this.kind = handle.kind;
  }

  /**
   * Counts one attempt against every backoff, all or nothing, before the attempt is judged (a login counts as
   * failed until its password proves right): when any says wait, nothing is recorded and the wait is returned;
   * otherwise the ids of the recorded events, for `forget` once the attempt turns out fine. Check and record are
   * one write transaction, so parallel attempts cannot all slip through the same gap.
   */
  async attempt(limits: readonly BackoffLimit[]): Promise<{ wait: Wait } | { ids: number[] }> {
    const at = this.now();
    return writeTransaction(this.handle, async (trx) => {
      const buckets = [...new Set(limits.map((l) => l.bucket))].sort();
      // Sorted, so two attempts naming the same buckets cannot lock them in opposite orders.
      for (const bucket of buckets) await this.lock(trx, bucket);
      for (const limit of limits) {
        if (limit.onlyAfter && !(await this.hasEvents(trx, limit.onlyAfter.bucket, at - limit.onlyAfter.windowMs))) {
          continue;
        }
        const wait = await this.backoffWait(trx, limit, at);
        if (wait) return { wait };
      }
      const ids: number[] = [];
      for (const bucket of buckets) {
        const longest = Math.max(...limits.filter((l) => l.bucket === bucket).map((l) => l.windowMs));
        await this.prune(trx, bucket, at - longest);
        const row = await trx
          .insertInto('rate_limit_hits')
          .values({ bucket, at })
          .returning('id')
          .executeTakeFirstOrThrow();
        ids.push(row.id);
      }
      return { ids };
    });
  }

  /** Takes back events recorded by `attempt` (an attempt that turned out fine). */
  async forget(ids: readonly number[]): Promise<void> {
    if (ids.length > 0) await this.db.deleteFrom('rate_limit_hits').where('id', 'in', ids).execute();
  }

  /** Forgets a bucket and every bucket named `<bucket>|...` below it (e.g. an account's per-source failures). */
  async clearWithSubBuckets(bucket: string): Promise<void> {
    const pattern = `${bucket.replace(/[\\%_]/g, (c) => `\\${c}`)}|%`;
    await this.db
      .deleteFrom('rate_limit_hits')
      .where((eb) => eb.or([eb('bucket', '=', bucket), sql<boolean>`bucket like ${pattern} escape '\\'`]))
      .execute();
  }

  /**
   * Counts one event against every given limit, all or nothing: when any limit is full nothing is recorded
   * (so hammering a refused endpoint does not extend the wait) and the refusal is returned.
   */
  async take(limits: readonly Limit[]): Promise<Refusal | null> {
    const at = this.now();
    return this.db.transaction().execute(async (trx) => {
      for (const limit of limits) {
        await this.lock(trx, limit.bucket);
        const refusal = await this.refusal(trx, limit, at);
        if (refusal) return refusal;
      }
      for (const bucket of new Set(limits.map((l) => l.bucket))) {
        const longest = Math.max(...limits.filter((l) => l.bucket === bucket).map((l) => l.windowMs));
        await this.prune(trx, bucket, at - longest);
        await trx.insertInto('rate_limit_hits').values({ bucket, at }).execute();
      }
      return null;
    });
  }

  /** Whether `limit` is full right now, without counting anything. */
  async check(limit: Limit): Promise<Refusal | null> {
    return this.refusal(this.db, limit, this.now());
  }

  /** Counts one event (e.g. a failed login) without checking. */
  async record(bucket: string): Promise<void> {
    await this.db.insertInto('rate_limit_hits').values({ bucket, at: this.now() }).execute();
  }

  /** Forgets a bucket's events (e.g. failed logins after a successful one). */
  async clear(bucket: string): Promise<void> {
    await this.db.deleteFrom('rate_limit_hits').where('bucket', '=', bucket).execute();
  }

  private async refusal(db: Kysely<Database>, limit: Limit, at: number): Promise<Refusal | null> {
    if (limit.max <= 0) return { limit, retryAfterMs: limit.windowMs };
    const hits = await db
      .selectFrom('rate_limit_hits')
      .select('at')
      .where('bucket', '=', limit.bucket)
      .where('at', '>', at - limit.windowMs)
      .orderBy('at', 'desc')
      .limit(limit.max)
      .execute();
    if (hits.length < limit.max) return null;
    // The request fits again once the max-th newest event has left the window.
    const oldestCounted = hits[limit.max - 1]?.at ?? at;
    return { limit, retryAfterMs: Math.max(1, oldestCounted + limit.windowMs - at) };
  }

  private async backoffWait(db: Kysely<Database>, limit: BackoffLimit, at: number): Promise<Wait | null> {
    const row = await db
      .selectFrom('rate_limit_hits')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('at').as('last')])
      .where('bucket', '=', limit.bucket)
      .where('at', '>', at - limit.windowMs)
      .executeTakeFirstOrThrow();
    const n = Number(row.n);
    if (n < limit.free || row.last === null) return null;
    const delay = Math.min(limit.baseMs * 2 ** (n - limit.free), limit.maxMs);
    const readyAt = Number(row.last) + delay;
    return readyAt > at ? { limit, retryAfterMs: readyAt - at } : null;
  }

  private async hasEvents(db: Kysely<Database>, bucket: string, after: number): Promise<boolean> {
    const row = await db
      .selectFrom('rate_limit_hits')
      .select('id')
      .where('bucket', '=', bucket)
      .where('at', '>', after)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  private async prune(trx: Kysely<Database>, bucket: string, before: number): Promise<void> {
    await trx.deleteFrom('rate_limit_hits').where('bucket', '=', bucket).where('at', '<=', before).execute();
  }

  /**
   * PostgreSQL's read-committed transactions would let two concurrent requests both see room for one more;
   * a per-bucket advisory lock serialises them. SQLite already serialises writers.
   */
  private async lock(trx: Kysely<Database>, bucket: string): Promise<void> {
    if (this.kind === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${bucket}))`.execute(trx);
  }
}
