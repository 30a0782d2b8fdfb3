import type { Kysely } from 'kysely';
import type { Database } from '../platform/db/schema';

/**
 * Every ledger entry is recorded for a user (its request id is unique per user). An entry between platform accounts
 * only, such as an operator funding the finance reserve from outside, is recorded for this principal: a users row
 * that can never sign in (its username has a character registration refuses, and its password hash verifies nothing)
 * and that owns no accounts. It is created on first use, so databases that never need it do not have it.
 */
export const PLATFORM_PRINCIPAL = '~platform';

export async function platformPrincipalId(db: Kysely<Database>, now: () => number = Date.now): Promise<number> {
  const find = () => db.selectFrom('users').select('id').where('username', '=', PLATFORM_PRINCIPAL).executeTakeFirst();
  const existing = await find();
  if (existing) return existing.id;
  await db
    .insertInto('users')
    .values({
      username: PLATFORM_PRINCIPAL,
      email: null,
      area_code: null,
      mobile: null,
      phone: null,
      password_hash: '!',
      fund_password_hash: null,
      invite_code: PLATFORM_PRINCIPAL,
      referrer_id: null,
      lang: 'en',
      created_at: now(),
      last_login_at: null,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const created = await find();
  if (!created) throw new Error('platform principal missing');
  return created.id;
}
