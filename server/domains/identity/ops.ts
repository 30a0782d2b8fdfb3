import path from 'node:path';
import type { Kysely } from 'kysely';
import { readConfig } from '../../config';
import { recordAudit } from '../../platform/audit';
import type { Database, IdentityState } from '../../platform/db/schema';
import type { OpsCommand } from '../../platform/ops/commands';
import { recordUserEvent } from '../../platform/realtime/user-events';
import { uploadsDirOf } from '../uploads';
import { VERIFICATION_EVENT } from './service';

/**
 * Operator review of identity verifications (`npm run ops -- kyc ...`) and operator access to uploaded files
 * (`npm run ops -- uploads path <id>`). A review changes the submission, appends the audit entry and writes the
 * user's `verification` event in one transaction; the server relays the event to the user's sockets.
 */

type Out = (line: string) => void;

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
  const rows = await db
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
    const updated = await trx
      .updateTable('identity_verifications')
      .set({ state: decision.state, reason, reviewed_at: at })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      const row = await trx
        .selectFrom('identity_verifications')
        .select('state')
        .where('id', '=', id)
        .executeTakeFirst();
      return {
        ok: false as const,
        problem: row ? `verification ${id} is ${row.state}, not pending` : `no verification ${id}`,
      };
    }
    const row = await trx
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

const KYC_USAGE = 'usage: npm run ops -- kyc list | kyc approve <id> | kyc reject <id> <reason...>';

const parseId = (raw: string | undefined): number | null => (raw && /^[1-9]\d{0,11}$/.test(raw) ? Number(raw) : null);

function describe(p: PendingVerification): string[] {
  const head = `#${p.id}  ${p.level.padEnd(8)}  user ${p.userId} (${p.username})  submitted ${new Date(p.createdAt).toISOString()}`;
  if (p.level === 'basic') {
    return [head, `      ${p.country}  ${p.name}  ID ${p.idNumber}`, `      ${p.address}`];
  }
  return [
    head,
    `      photos: front ${p.front}, back ${p.back}, holding ${p.hold}  (npm run ops -- uploads path <id>)`,
  ];
}

/** `kyc list | approve <id> | reject <id> <reason...>`; returns the exit code. */
export async function runKycCommand(args: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub, rawId, ...words] = args;
  if (sub === 'list') {
    const pending = await listPendingVerifications(db);
    if (pending.length === 0) out('no verifications waiting for review');
    for (const p of pending) for (const line of describe(p)) out(line);
    return 0;
  }
  if (sub !== 'approve' && sub !== 'reject') {
    out(KYC_USAGE);
    return 2;
  }
  const id = parseId(rawId);
  if (id === null) {
    out(KYC_USAGE);
    return 2;
  }
  const result =
    sub === 'approve' ? await approveVerification(db, id) : await rejectVerification(db, id, words.join(' '));
  if (!result.ok) {
    out(result.problem);
    return 1;
  }
  out(`verification ${id} (${result.level}, user ${result.userId}) is now ${result.state}`);
  return 0;
}

/** `uploads path <id>`: where an upload's file is, for an operator to open. */
export async function runUploadsCommand(
  args: readonly string[],
  db: Kysely<Database>,
  out: Out,
  uploadsDir: string = uploadsDirOf(readConfig().dataDir),
): Promise<number> {
  const [sub, rawId] = args;
  const id = parseId(rawId);
  if (sub !== 'path' || id === null) {
    out('usage: npm run ops -- uploads path <id>');
    return 2;
  }
  const row = await db
    .selectFrom('uploads')
    .select(['file_name', 'user_id', 'mime', 'size', 'deleted_at', 'attached_to'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) {
    out(`no upload ${id}`);
    return 1;
  }
  if (row.deleted_at !== null) {
    out(`upload ${id} was removed by its owner`);
    return 1;
  }
  out(path.join(uploadsDir, row.file_name));
  out(`  user ${row.user_id}, ${row.mime}, ${row.size} bytes${row.attached_to ? `, used by ${row.attached_to}` : ''}`);
  return 0;
}

/** The identity module's operator commands (uploads belong to verifications today). */
export const identityOps: OpsCommand[] = [
  {
    name: 'kyc',
    help: [
      ['kyc list', 'identity verifications waiting for review'],
      ['kyc approve <id>', 'approve one (the user sees it live)'],
      ['kyc reject <id> <reason...>', 'reject one with a reason shown to the user'],
    ],
    run: (words, { db, out }) => runKycCommand(words, db, out),
  },
  {
    name: 'uploads',
    help: [['uploads path <id>', 'where an uploaded image is stored']],
    run: (words, { db, out }) => runUploadsCommand(words, db, out),
  },
];
