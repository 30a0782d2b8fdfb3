import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { newToken, sha256 } from './digest';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;

/** How far a session's "last used" may lag: a request writes it only when it is older than this. */
export const LAST_USED_STEP_MS = 60_000;

/** Most live sessions the device list shows (the newest). */
export const LIVE_SESSIONS_LISTED = 100;

/** The User-Agent kept with a session: enough to name the device, no more. */
export const USER_AGENT_MAX = 512;

/** What a session was started with, for the list of signed-in devices. */
export interface SessionOrigin {
  userAgent?: string | undefined;
}

/** A live session as the user's device list shows it. */
export interface LiveSession {
  id: number;
  userAgent: string | null;
  createdAt: number;
  lastUsedAt: number;
}

export interface Session {
  id: number;
  userId: number;
}

/** What a request's token amounts to: none sent, sent but not (or no longer) valid, or a live session. */
export type SessionLookup = { state: 'none' } | { state: 'invalid' } | { state: 'valid'; session: Session };

/**
 * The token from an Authorization header, plain or `Bearer <token>`. Clients that keep a logged-out state
 * sometimes send '', 'null' or 'undefined'; those mean no token.
 */
export function tokenFromHeader(header: string | undefined): string | undefined {
  const token = header
    ?.trim()
    .replace(/^bearer(\s+|$)/i, '')
    .trim();
  if (!token || token === 'null' || token === 'undefined') return undefined;
  return token;
}

/** Login sessions. Only sha256(token) is stored, so a database leak yields no usable tokens. */
export class Sessions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
  ) {}

  /** Starts a session (inside the caller's transaction when given one) and returns its token. */
  async create(userId: number, db: Kysely<Database> = this.db, origin: SessionOrigin = {}): Promise<string> {
    const token = newToken();
    const at = this.now();
    await db
      .insertInto('sessions')
      .values({
        user_id: userId,
        token_hash: sha256(token),
        created_at: at,
        expires_at: at + SESSION_TTL_MS,
        user_agent: origin.userAgent ? origin.userAgent.slice(0, USER_AGENT_MAX) : null,
        last_used_at: at,
      })
      .execute();
    return token;
  }

  async resolve(token: string | undefined): Promise<SessionLookup> {
    // Real tokens are 43 characters; refusing absurd ones early keeps junk out of the hash and the query.
    if (token === undefined) return { state: 'none' };
    if (token.length > 200) return { state: 'invalid' };
    const row = await this.db
      .selectFrom('sessions')
      .select(['id', 'user_id', 'expires_at', 'revoked_at', 'last_used_at'])
      .where('token_hash', '=', sha256(token))
      .executeTakeFirst();
    const now = this.now();
    if (!row || row.revoked_at !== null || row.expires_at <= now) return { state: 'invalid' };
    // The device list's "last used": one write a minute per session at most, not one per request.
    if (row.last_used_at === null || now - Number(row.last_used_at) >= LAST_USED_STEP_MS) {
      await this.db.updateTable('sessions').set({ last_used_at: now }).where('id', '=', row.id).execute();
    }
    return { state: 'valid', session: { id: row.id, userId: row.user_id } };
  }

  /** A user's live sessions (not ended, not expired), the most recently used first (in the caller's transaction when given one). */
  async listLive(userId: number, db: Kysely<Database> = this.db): Promise<LiveSession[]> {
    const rows = await db
      .selectFrom('sessions')
      .select(['id', 'user_agent', 'created_at', 'last_used_at'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', this.now())
      // A list a person reads: a script that signs in again and again does not make it endless.
      .orderBy('id', 'desc')
      .limit(LIVE_SESSIONS_LISTED)
      .execute();
    return rows
      .map((r) => ({
        id: r.id,
        userAgent: r.user_agent,
        createdAt: Number(r.created_at),
        lastUsedAt: Number(r.last_used_at ?? r.created_at),
      }))
      .sort((a, b) => b.lastUsedAt - a.lastUsedAt || b.id - a.id);
  }

  /**
   * Ends live sessions of `userId` by id from the user's device list (inside the caller's transaction when given one),
   * marking them so their devices no longer count as known; how many it ended (ids not theirs, ended or expired: none).
   */
  async endFromList(userId: number, sessionIds: readonly number[], db: Kysely<Database> = this.db): Promise<number> {
    if (sessionIds.length === 0) return 0;
    const now = this.now();
    const result = await db
      .updateTable('sessions')
      .set({ revoked_at: now, ended_from_list: now })
      .where('id', 'in', [...sessionIds])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Of `ids`, the sessions still live (not revoked, not expired). */
  async liveIds(ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('sessions')
      .select('id')
      .where('id', 'in', [...ids])
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', this.now())
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  async revoke(sessionId: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: this.now() })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Ends every live session of a user except `keep` (the caller's own, after a password change). */
  async revokeAll(userId: number, options: { keep?: number; db?: Kysely<Database> } = {}): Promise<number> {
    let query = (options.db ?? this.db)
      .updateTable('sessions')
      .set({ revoked_at: this.now() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (options.keep !== undefined) query = query.where('id', '!=', options.keep);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async countActive(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', this.now())
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
