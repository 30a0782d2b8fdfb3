import type { Kysely } from 'kysely';
import {
  KYC_PHOTO_SIDES,
  OPS_DEPOSIT_PROOF_PATH,
  OPS_KYC_PHOTO_PATH,
  opsConsoleCalls,
  opsIdRequest,
  opsKycPhotoRequest,
} from '../../../protocol/ops-console';
import type { DatabaseHandle } from '../../platform/db/connect';
import { cursorPage } from '../../platform/db/paging';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import {
  approveDeposit,
  approveWithdrawal,
  type FundingTables,
  listPendingDeposits,
  listPendingWithdrawals,
  rejectDeposit,
  rejectWithdrawal,
  withFunding,
} from '../funding';
import {
  approveVerification,
  type IdentityTables,
  listPendingVerifications,
  rejectVerification,
  withIdentity,
} from '../identity';
import type { UploadStore } from '../uploads';
import { withUploads } from '../uploads';
import { type OpsImageRoute, opsSection, requireOperator } from './console';
import type { ConsoleServices } from './login';
import { opsLogin, opsLogout } from './login';

/**
 * The console's own calls: login, logout, who am I; the review queues of deposits, withdrawals and identity
 * verifications, decided by the same service functions the ops CLI runs (funding/review.ts, identity/review.ts: the
 * row, the ledger, the audit entry with the operator's name and the user's event in one transaction); the audit log.
 */

/** States of funding rows still open for a decision (an earlier version's half-decided ones included). */
const OPEN_FUNDING = ['pending', 'approving', 'rejecting'] as const;

/**
 * A review the service refused: the row is gone or somebody decided it first (the service's own text is for the CLI;
 * the console reads the row to say which, in the operator's language).
 */
async function refusedReview(
  db: Kysely<Database>,
  table: 'deposits' | 'withdrawals' | 'identity_verifications',
  id: number,
  problem: string,
): Promise<never> {
  const row = await db
    .withTables<FundingTables & IdentityTables>()
    .selectFrom(table)
    .select('state')
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new BusinessError('opsNotFound', { field: 'id' });
  if (row.state !== 'pending') throw new BusinessError('opsAlreadyDecided', { field: 'id' });
  throw new Error(`review of ${table} ${id} refused: ${problem}`);
}

export function consoleSection(s: ConsoleServices) {
  const handle: DatabaseHandle = s.database;
  const db = handle.db;
  const by = (ctx: Parameters<typeof requireOperator>[0]) => ({
    operator: requireOperator(ctx).operator.name,
    now: s.now,
  });
  return opsSection(
    opsConsoleCalls,
    {
      'ops/login': (input, ctx) => opsLogin(s, input, { ip: ctx.ip }),
      'ops/logout': async (_input, ctx) => {
        const { operator, sessionId } = requireOperator(ctx);
        await opsLogout(s, { id: sessionId, operator });
        return {};
      },
      'ops/me': async (_input, ctx) => {
        const { operator } = requireOperator(ctx);
        return { name: operator.name, roles: operator.roles };
      },

      'ops/deposits': async () => ({
        items: (await listPendingDeposits(db)).map((d) => ({
          id: d.id,
          user_id: d.userId,
          username: d.username,
          method: d.method,
          coin: d.coin,
          chain: d.chain,
          amount: d.amount,
          hash: d.hash,
          card_last4: d.cardLast4,
          proof: d.proof,
          state: d.state,
          created_at: d.createdAt,
        })),
      }),
      'ops/deposits/approve': async ({ id }, ctx) => {
        const result = await approveDeposit(handle, id, by(ctx));
        return result.ok ? { id, state: result.state } : refusedReview(db, 'deposits', id, result.problem);
      },
      'ops/deposits/reject': async ({ id, reason }, ctx) => {
        const result = await rejectDeposit(handle, id, reason, by(ctx));
        return result.ok ? { id, state: result.state } : refusedReview(db, 'deposits', id, result.problem);
      },

      'ops/withdrawals': async () => ({
        items: (await listPendingWithdrawals(db)).map((w) => ({
          id: w.id,
          user_id: w.userId,
          username: w.username,
          coin: w.coin,
          chain: w.chain,
          address: w.address,
          amount: w.amount,
          fee: w.fee,
          remark: w.remark,
          state: w.state,
          created_at: w.createdAt,
        })),
      }),
      'ops/withdrawals/approve': async ({ id }, ctx) => {
        const result = await approveWithdrawal(handle, id, by(ctx));
        return result.ok ? { id, state: result.state } : refusedReview(db, 'withdrawals', id, result.problem);
      },
      'ops/withdrawals/reject': async ({ id, reason }, ctx) => {
        const result = await rejectWithdrawal(handle, id, reason, by(ctx));
        return result.ok ? { id, state: result.state } : refusedReview(db, 'withdrawals', id, result.problem);
      },

      'ops/kyc': async () => {
        const pending = await listPendingVerifications(db);
        const basics = await verifiedBasics(
          db,
          pending.filter((v) => v.level === 'advanced').map((v) => v.userId),
        );
        return {
          items: pending.map((v) => {
            // The photos of an advanced submission are checked against the identity verified at the basic level.
            const who = v.level === 'advanced' ? basics.get(v.userId) : undefined;
            return {
              id: v.id,
              user_id: v.userId,
              username: v.username,
              level: v.level,
              created_at: v.createdAt,
              country: who ? who.country : v.country,
              name: who ? who.name : v.name,
              id_number: who ? who.id_number : v.idNumber,
              address: who ? who.address : v.address,
              photos: KYC_PHOTO_SIDES.filter((side) => v[side] !== null),
            };
          }),
        };
      },
      'ops/kyc/approve': async ({ id }, ctx) => {
        const result = await approveVerification(db, id, by(ctx));
        return result.ok
          ? { id, state: 'verified' as const }
          : refusedReview(db, 'identity_verifications', id, result.problem);
      },
      'ops/kyc/reject': async ({ id, reason }, ctx) => {
        const result = await rejectVerification(db, id, reason, by(ctx));
        return result.ok
          ? { id, state: 'rejected' as const }
          : refusedReview(db, 'identity_verifications', id, result.problem);
      },

      // Reading the log itself is not logged: it would record mostly its own reads (admins only).
      'ops/audit': async ({ before_id, limit }) => {
        const size = limit ?? 50;
        let query = db
          .selectFrom('ops_audit')
          .selectAll()
          .orderBy('id', 'desc')
          .limit(size + 1);
        if (before_id !== undefined) query = query.where('id', '<', before_id);
        const { page, next_before_id } = cursorPage(await query.execute(), size);
        return {
          items: page.map((r) => ({
            id: r.id,
            at: r.at,
            operator: r.operator,
            action: r.action,
            subject_type: r.subject_type,
            subject_id: r.subject_id,
            detail: parseDetail(r.detail),
          })),
          next_before_id,
        };
      },
    },
    reviewImages(db),
    {
      // The queues show users' amounts, addresses and (unmasked) identities: which rows an operator saw is recorded.
      'ops/deposits': (_input, result) => queueView('deposits', result.items),
      'ops/withdrawals': (_input, result) => queueView('withdrawals', result.items),
      'ops/kyc': (_input, result) => queueView('identity_verifications', result.items),
    },
  );
}

/** A review queue as it was shown: the table and the ids of its rows. */
const queueView = (table: string, items: readonly { id: number }[]) => ({
  action: `${table}.view`,
  subjectType: table,
  subjectId: 'pending',
  detail: { ids: items.map((i) => i.id) },
});

/** The verified basic identity of each user (their latest), to check advanced photos against. */
async function verifiedBasics(
  db: Kysely<Database>,
  userIds: readonly number[],
): Promise<
  Map<number, { country: string | null; name: string | null; id_number: string | null; address: string | null }>
> {
  if (userIds.length === 0) return new Map();
  const rows = await withIdentity(db)
    .selectFrom('identity_verifications')
    .select(['user_id', 'country', 'name', 'id_number', 'address'])
    .where('user_id', 'in', [...new Set(userIds)])
    .where('level', '=', 'basic')
    .where('state', '=', 'verified')
    .orderBy('id')
    .execute();
  return new Map(rows.map((r) => [r.user_id, r]));
}

function parseDetail(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The file of an upload by id (not removed by its owner), or null. */
export async function uploadFile(db: Kysely<Database>, uploads: UploadStore, uploadId: number | null) {
  if (uploadId === null) return null;
  const row = await withUploads(db)
    .selectFrom('uploads')
    .select(['file_name', 'mime'])
    .where('id', '=', uploadId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  const file = row ? uploads.pathOf(row.file_name) : null;
  return row && file ? { path: file, mime: row.mime } : null;
}

/**
 * The images of a review, to reviewers only and only while the row waits for a decision (so the console is no way
 * to browse users' files): an identity verification's photos by side, a deposit's proof. Anything else is the same
 * 404 as a missing one. Who saw which photo of which submission is audited (register.ts serves and records them).
 */
export function reviewImages(db: Kysely<Database>): OpsImageRoute[] {
  return [
    {
      path: OPS_KYC_PHOTO_PATH,
      access: 'reviewer',
      image: async (query) => {
        const parsed = opsKycPhotoRequest.safeParse(query);
        if (!parsed.success) return null;
        const { id, side } = parsed.data;
        const row = await withIdentity(db)
          .selectFrom('identity_verifications')
          .select(['user_id', 'front_upload_id', 'back_upload_id', 'hold_upload_id'])
          .where('id', '=', id)
          .where('state', '=', 'pending')
          .executeTakeFirst();
        const uploadId = row
          ? { front: row.front_upload_id, back: row.back_upload_id, hold: row.hold_upload_id }[side]
          : null;
        if (!row || uploadId === null) return null;
        return {
          uploadId,
          view: {
            action: 'kyc.photo_view',
            subjectType: 'identity_verification',
            subjectId: id,
            detail: { side, user_id: row.user_id, upload_id: uploadId },
          },
        };
      },
    },
    {
      path: OPS_DEPOSIT_PROOF_PATH,
      access: 'reviewer',
      image: async (query) => {
        const parsed = opsIdRequest.safeParse(query);
        if (!parsed.success) return null;
        const row = await withFunding(db)
          .selectFrom('deposits')
          .select(['user_id', 'proof_upload_id'])
          .where('id', '=', parsed.data.id)
          .where('state', 'in', [...OPEN_FUNDING])
          .executeTakeFirst();
        if (!row || row.proof_upload_id === null) return null;
        return {
          uploadId: row.proof_upload_id,
          view: {
            action: 'deposit.proof_view',
            subjectType: 'deposit',
            subjectId: parsed.data.id,
            detail: { user_id: row.user_id, upload_id: row.proof_upload_id },
          },
        };
      },
    },
  ];
}
