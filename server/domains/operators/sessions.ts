import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import { newToken, sha256 } from '../../platform/security/digest';
import { type OperatorPrincipal, rolesOf } from './accounts';
import { withOperators } from './tables';

/**
 * Console sessions, apart from users' (server/platform/security/sessions.ts): their own table and token, sent in the
 * X-Ops-Token header. Only sha256(token) is stored. A session ends after `idleMs` without a request, after
 * `absoluteMs` whatever happens, at logout, and when the operator is disabled or given a new TOTP secret; a disabled
 * operator's session is refused at once even before that.
 */

export interface OperatorSessionTimes {
  /** Without a request for this long the session ends (default 30 minutes). */
  idleMs: number;
  /** The session ends this long after login whatever happens (default 12 hours: one working day). */
  absoluteMs: number;
}

export const DEFAULT_OPERATOR_SESSION_TIMES: OperatorSessionTimes = {
  idleMs: 30 * 60_000,
  absoluteMs: 12 * 60 * 60_000,
};

/** Requests within this long of the last recorded one do not write it again (one write a few seconds at most). */
const TOUCH_EVERY_MS = 5_000;

export interface OperatorSession {
  id: number;
  operator: OperatorPrincipal;
}

export type OperatorSessionLookup =
  | { state: 'none' }
  | { state: 'invalid' }
  | { state: 'valid'; session: OperatorSession };

/** The console token of a request's header ('' and absurd lengths are no token). */
export function opsTokenFromHeader(header: string | string[] | undefined): string | undefined {
  const raw = (Array.isArray(header) ? header[0] : header)?.trim();
  return raw ? raw : undefined;
}

export class OperatorSessions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
    readonly times: OperatorSessionTimes = DEFAULT_OPERATOR_SESSION_TIMES,
  ) {}

  /** Starts a session inside the caller's transaction; returns its token and absolute end. */
  async create(trx: Kysely<Database>, operatorId: number): Promise<{ token: string; expiresAt: number }> {
    const token = newToken();
    const at = this.now();
    const expiresAt = at + this.times.absoluteMs;
    await withOperators(trx)
      .insertInto('operator_sessions')
      .values({
        operator_id: operatorId,
        token_hash: sha256(token),
        created_at: at,
        last_seen_at: at,
        expires_at: expiresAt,
        revoked_at: null,
      })
      .execute();
    return { token, expiresAt };
  }

  /** The live session of a token (and renews its idle time), or why there is none. */
  async resolve(token: string | undefined): Promise<OperatorSessionLookup> {
    if (token === undefined) return { state: 'none' };
    if (token.length > 200) return { state: 'invalid' };
    const row = await withOperators(this.db)
      .selectFrom('operator_sessions as s')
      .innerJoin('operators as o', 'o.id', 's.operator_id')
      .select(['s.id', 's.last_seen_at', 's.expires_at', 's.revoked_at', 'o.id as operator_id', 'o.name', 'o.roles'])
      .select('o.disabled_at')
      .where('s.token_hash', '=', sha256(token))
      .executeTakeFirst();
    const at = this.now();
    if (
      !row ||
      row.revoked_at !== null ||
      row.disabled_at !== null ||
      row.expires_at <= at ||
      row.last_seen_at + this.times.idleMs <= at
    ) {
      return { state: 'invalid' };
    }
    if (at - row.last_seen_at >= TOUCH_EVERY_MS) {
      await withOperators(this.db)
        .updateTable('operator_sessions')
        .set({ last_seen_at: at })
        .where('id', '=', row.id)
        .where('last_seen_at', '<', at)
        .execute();
    }
    return {
      state: 'valid',
      session: { id: row.id, operator: { id: row.operator_id, name: row.name, roles: rolesOf(row.roles) } },
    };
  }

  /** Ends one session (logout), inside the caller's transaction when given one. */
  async revoke(sessionId: number, db: Kysely<Database> = this.db): Promise<void> {
    await withOperators(db)
      .updateTable('operator_sessions')
      .set({ revoked_at: this.now() })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  }
}
