import type { Kysely } from 'kysely';
import { recordAudit } from '../../platform/audit';
import type { Database } from '../../platform/db/schema';
import { recordUserEvent } from '../../platform/realtime/user-events';
import { VERIFICATION_EVENT } from './service';
import type { IdentityState } from './tables';
import { withIdentity } from './tables';

/**
 * Operator review of identity verifications, for the ops CLI (`npm run ops -- kyc ...`) and the support console. A
 * review changes the submission, appends the audit entry and writes the user's `verification` event in one
 * transaction; the server relays the event to the user's sockets.
 */

export interface PendingVerification {
  id: number;
  userId: number;
  username: string;
  level: 'basic' | 'advanced';
  createdAt: number;
  country: string | null;
  name: string | null;
  idNumber: string | null;
  address: string | null;
  front: number | null;
  back: number | null;
  hold: number | null;
}

/** Submissions waiting for review, oldest first, unmasked (the operator compares them with the photos). */
export async function listPendingVerifications(db: Kysely<Database>): Promise<PendingVerification[]> {
  const rows = await withIdentity(db)
    .selectFrom('identity_verifications as v')
    .innerJoin('users as u', 'u.id', 'v.user_id')
    .select([
      'v.id',
      'v.user_id',
      'u.username',
      'v.level',
      'v.created_at',
      'v.country',
      'v.name',
      'v.id_number',
      'v.address',
      'v.front_upload_id',
      'v.back_upload_id',
      'v.hold_upload_id',
    ])
    .where('v.state', '=', 'pending')
    .orderBy('v.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    username: r.username,
    level: r.level,
    createdAt: r.created_at,
    country: r.country,
    name: r.name,
    idNumber: r.id_number,
    address: r.address,
    front: r.front_upload_id,
    back: r.back_upload_id,
    hold: r.hold_upload_id,
  }));
}

export interface ReviewOptions {
  /** Who reviews; defaults to OPS_OPERATOR or the OS user (see audit.ts). */
  operator?: string;
  now?: () => number;
}

export type ReviewResult =
  | { ok: true; id: number; userId: number; level: 'basic' | 'advanced'; state: IdentityState }
  | { ok: false; problem: string };

export const MAX_REASON = 500;

async function review(
  db: Kysely<Database>,
  id: number,
  decision: { state: 'verified' } | { state: 'rejected'; reason: string },
  options: ReviewOptions,
): Promise<ReviewResult> {
  const reason = decision.state === 'rejected' ? decision.reason.trim().replace(/\s+/g, ' ') : null;
  if (decision.state === 'rejected' && !reason) return { ok: false, problem: 'a rejection needs a reason' };
  if (reason && reason.length > MAX_REASON) return { ok: false, problem: `the reason is longer than ${MAX_REASON}` };
  const at = (options.now ?? Date.now)();
  return db.transaction().execute(async (trx) => {
    // The conditional update comes first: it takes the write lock (SQLite) or the row lock (PostgreSQL) before
    // anything is read, and a second reviewer of the same row finds nothing left to change.
    const updated = await withIdentity(trx)
      .updateTable('identity_verifications')
      .set({ state: decision.state, reason, reviewed_at: at })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      const row = await withIdentity(trx)
        .selectFrom('identity_verifications')
        .select('state')
        .where('id', '=', id)
        .executeTakeFirst();
      return {
        ok: false as const,
        problem: row ? `verification ${id} is ${row.state}, not pending` : `no verification ${id}`,
      };
    }
    const row = await withIdentity(trx)
      .selectFrom('identity_verifications')
      .select(['user_id', 'level'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      action: decision.state === 'verified' ? 'kyc.approve' : 'kyc.reject',
      subjectType: 'identity_verification',
      subjectId: id,
      detail: { user_id: row.user_id, level: row.level, ...(reason ? { reason } : {}) },
      ...(options.operator ? { operator: options.operator } : {}),
      at,
    });
    await recordUserEvent(trx, {
      userId: row.user_id,
      kind: VERIFICATION_EVENT,
      data: { level: row.level, state: decision.state, reason },
      at,
    });
    return { ok: true as const, id, userId: row.user_id, level: row.level, state: decision.state };
  });
}

/** Approves a pending submission. */
export function approveVerification(db: Kysely<Database>, id: number, options: ReviewOptions = {}) {
  return review(db, id, { state: 'verified' }, options);
}

/** Rejects a pending submission; the reason is shown to the user, who may then submit again. */
export function rejectVerification(db: Kysely<Database>, id: number, reason: string, options: ReviewOptions = {}) {
  return review(db, id, { state: 'rejected', reason }, options);
}
