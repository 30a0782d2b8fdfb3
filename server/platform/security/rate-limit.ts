import { type Kysely, sql, type Transaction } from 'kysely';
import type { DatabaseHandle, DialectKind } from '../db/connect';
import type { Database } from '../db/schema';

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
 * Rate limits counted in the database, so they hold across server processes and restarts.
 * Each counted event is a row; a limit looks at the rows of its bucket younger than its window.
 */
export class RateLimiter {
  private readonly db: Kysely<Database>;
  private readonly kind: DialectKind;

  constructor(
    handle: DatabaseHandle,
    private readonly now: () => number,
  ) {
    this.db = handle.db;
    this.kind = handle.kind;
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

  private async prune(trx: Transaction<Database>, bucket: string, before: number): Promise<void> {
    await trx.deleteFrom('rate_limit_hits').where('bucket', '=', bucket).where('at', '<=', before).execute();
  }

  /**
   * PostgreSQL's read-committed transactions would let two concurrent requests both see room for one more;
   * a per-bucket advisory lock serialises them. SQLite already serialises writers.
   */
  private async lock(trx: Transaction<Database>, bucket: string): Promise<void> {
    if (this.kind === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${bucket}))`.execute(trx);
  }
}
