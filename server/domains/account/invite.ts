import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import { randomString } from '../../platform/security/digest';

/** No 0/O or 1/I/L: invite codes are read aloud and typed from screenshots. */
export const INVITE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const INVITE_LENGTH = 8;
const PLATFORM_INVITE_KEY = 'platform_invite_code';

/** Invite codes compare case-insensitively and ignore surrounding spaces. */
export const normalizeInviteCode = (code: string): string => code.trim().toUpperCase();

export const randomInviteCode = (): string => randomString(INVITE_ALPHABET, INVITE_LENGTH);

export async function platformInviteCode(db: Kysely<Database>): Promise<string | undefined> {
  const row = await db
    .selectFrom('platform_settings')
    .select('value')
    .where('key', '=', PLATFORM_INVITE_KEY)
    .executeTakeFirst();
  return row?.value;
}

/**
 * Makes sure the platform invite code exists and returns it. On first start it is `wanted` (INVITE_CODE) or
 * random; when INVITE_CODE is set later to something else, the operator's value replaces the stored one.
 */
export async function ensurePlatformInviteCode(db: Kysely<Database>, wanted?: string): Promise<string> {
  const code = wanted ? normalizeInviteCode(wanted) : randomInviteCode();
  await db
    .insertInto('platform_settings')
    .values({ key: PLATFORM_INVITE_KEY, value: code })
    .onConflict((oc) => (wanted ? oc.column('key').doUpdateSet({ value: code }) : oc.column('key').doNothing()))
    .execute();
  const stored = await platformInviteCode(db);
  if (!stored) throw new Error('platform invite code missing after insert');
  return stored;
}

/**
 * The referrer named by an invite code: a user's id, or null for the platform's own code.
 * Throws inviteInvalid for anything else.
 */
export async function referrerOf(db: Kysely<Database>, inviteCode: string): Promise<number | null> {
  const code = normalizeInviteCode(inviteCode);
  const user = await db.selectFrom('users').select('id').where('invite_code', '=', code).executeTakeFirst();
  if (user) return user.id;
  if (code === (await platformInviteCode(db))) return null;
  throw new BusinessError('inviteInvalid', { field: 'invite_code' });
}

/** A fresh invite code for a new user, unused by anyone (the platform included). */
export async function newUserInviteCode(db: Kysely<Database>): Promise<string> {
  const platform = await platformInviteCode(db);
  return unusedValue(
    randomInviteCode,
    async (code) =>
      code === platform ||
      (await db.selectFrom('users').select('id').where('invite_code', '=', code).executeTakeFirst()) !== undefined,
  );
}

/** Draws candidates until one is free; with millions of possibilities a second draw is already rare. */
export async function unusedValue(draw: () => string, taken: (value: string) => Promise<boolean>): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const value = draw();
    if (!(await taken(value))) return value;
  }
  throw new Error('no free value after 20 draws');
}
