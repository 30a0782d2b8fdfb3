import type { Insertable, Kysely } from 'kysely';
import type { z } from 'zod/mini';
import type {
  advancedVerificationRequest,
  basicVerificationRequest,
  RealNameInfo,
  VerificationLevel,
  VerificationState,
} from '../../../protocol/identity';
import { type DatabaseHandle, isUniqueViolation } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { recordUserEvent } from '../../platform/realtime/user-events';
import { AREA_CODES } from '../account';
import { assertUsableUploads, attachUploads } from '../uploads';
import type { IdentityState, IdentityVerificationsTable } from './tables';
import { withIdentity } from './tables';

/**
 * Identity verification (SPEC 3, 4, 5): basic (country, name, ID number, contact address) and advanced (photos of
 * the ID's front and back and of the user holding it), advanced only once basic is verified. A submission is
 * pending until an operator approves or rejects it (server/ops/identity.ts); after a rejection the user may submit
 * again. Every state change also writes a `verification` user event in the same transaction.
 */

export interface IdentityServices {
  database: DatabaseHandle;
  now: () => number;
}

export type BasicInput = z.output<typeof basicVerificationRequest>;
export type AdvancedInput = z.output<typeof advancedVerificationRequest>;

/** The `verification` user event's kind. */
export const VERIFICATION_EVENT = 'verification';

const COUNTRIES = new Set(AREA_CODES.map((c) => c.iso));

/** The tag an attached upload carries: which submission uses it. */
export const identityUploadTag = (verificationId: number) => `identity:${verificationId}`;

interface Latest {
  id: number;
  state: IdentityState;
}

async function latest(db: Kysely<Database>, userId: number, level: VerificationLevel): Promise<Latest | undefined> {
  return withIdentity(db)
    .selectFrom('identity_verifications')
    .select(['id', 'state'])
    .where('user_id', '=', userId)
    .where('level', '=', level)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Refuses a second submission while one is under review or verified. */
function assertMaySubmit(current: Latest | undefined): void {
  if (current?.state === 'pending') throw new BusinessError('verificationPending');
  if (current?.state === 'verified') throw new BusinessError('verificationDone');
}

/** The verification state of one level for a user ('none' until the first submission). Other areas ask this. */
export async function verificationState(
  db: Kysely<Database>,
  userId: number,
  level: VerificationLevel,
): Promise<VerificationState> {
  return (await latest(db, userId, level))?.state ?? 'none';
}

async function insertSubmission(
  trx: Kysely<Database>,
  values: Insertable<IdentityVerificationsTable>,
): Promise<number> {
  try {
    const row = await withIdentity(trx)
      .insertInto('identity_verifications')
      .values(values)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  } catch (err) {
    // Two submissions at once: the unique index on live rows lets one through.
    if (isUniqueViolation(err)) throw new BusinessError('verificationPending');
    throw err;
  }
}

/** user/real_name: the basic level. */
export async function submitBasic(s: IdentityServices, userId: number, input: BasicInput) {
  if (!COUNTRIES.has(input.country)) throw new BusinessError('countryInvalid', { field: 'country' });
  const at = s.now();
  return writeTransaction(s.database, async (trx) => {
    assertMaySubmit(await latest(trx, userId, 'basic'));
    const id = await insertSubmission(trx, {
      user_id: userId,
      level: 'basic',
      state: 'pending',
      country: input.country,
      name: input.name,
      id_number: input.id_number.toUpperCase(),
      address: input.address,
      front_upload_id: null,
      back_upload_id: null,
      hold_upload_id: null,
      reason: null,
      created_at: at,
      reviewed_at: null,
    });
    await recordUserEvent(trx, {
      userId,
      kind: VERIFICATION_EVENT,
      data: { level: 'basic', state: 'pending', reason: null },
      at,
    });
    return { id, state: 'pending' as const };
  });
}

/** user/real_name2: the advanced level; needs basic verified, and three of the user's own unattached uploads. */
export async function submitAdvanced(s: IdentityServices, userId: number, input: AdvancedInput) {
  const at = s.now();
  return writeTransaction(s.database, async (trx) => {
    if ((await latest(trx, userId, 'basic'))?.state !== 'verified') throw new BusinessError('basicFirst');
    assertMaySubmit(await latest(trx, userId, 'advanced'));
    const photos = { front: input.front, back: input.back, hold: input.hold };
    await assertUsableUploads(trx, userId, photos);
    const id = await insertSubmission(trx, {
      user_id: userId,
      level: 'advanced',
      state: 'pending',
      country: null,
      name: null,
      id_number: null,
      address: null,
      front_upload_id: input.front,
      back_upload_id: input.back,
      hold_upload_id: input.hold,
      reason: null,
      created_at: at,
      reviewed_at: null,
    });
    // A photo removed or used meanwhile fails here and rolls the row back with it.
    await attachUploads(trx, userId, photos, identityUploadTag(id));
    await recordUserEvent(trx, {
      userId,
      kind: VERIFICATION_EVENT,
      data: { level: 'advanced', state: 'pending', reason: null },
      at,
    });
    return { id, state: 'pending' as const };
  });
}

/** "Max Mustermann" → "M** M*********": enough to recognise one's own entry, not to read it off a screen. */
export function maskName(name: string): string {
  return name
    .split(/(\s+)/)
    .map((part) =>
      /^\s+$/.test(part) || part.length === 0
        ? part
        : `${[...part][0]}${'*'.repeat(Math.min(8, [...part].length - 1))}`,
    )
    .join('');
}

/** Only the last four characters of an ID number stay readable. */
export function maskIdNumber(idNumber: string): string {
  const keep = idNumber.length > 4 ? 4 : 1;
  return `${'*'.repeat(Math.min(12, idNumber.length - keep))}${idNumber.slice(-keep)}`;
}

/** user/real_name_info: the latest submission of each level, the basic fields masked. */
export async function realNameInfo(s: IdentityServices, userId: number): Promise<RealNameInfo> {
  const rows = await withIdentity(s.database.db)
    .selectFrom('identity_verifications')
    .select(['id', 'level', 'state', 'country', 'name', 'id_number', 'reason', 'created_at', 'reviewed_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
  const basic = rows.find((r) => r.level === 'basic');
  const advanced = rows.find((r) => r.level === 'advanced');
  const common = (row: (typeof rows)[number] | undefined) => ({
    state: row?.state ?? ('none' as const),
    reason: row?.state === 'rejected' ? row.reason : null,
    submitted_at: row?.created_at ?? null,
    reviewed_at: row?.reviewed_at ?? null,
  });
  return {
    basic: {
      ...common(basic),
      country: basic?.country ?? null,
      name: basic?.name ? maskName(basic.name) : null,
      id_number: basic?.id_number ? maskIdNumber(basic.id_number) : null,
    },
    advanced: common(advanced),
  };
}
