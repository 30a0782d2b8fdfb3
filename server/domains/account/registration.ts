import type { Kysely } from 'kysely';
import type { z } from 'zod/mini';
import type { Lang, registerRequest, SessionResponse } from '../../../protocol';
import { isUniqueViolation } from '../../platform/db/connect';
import type { Database, UserRow } from '../../platform/db/schema';
import { DIGITS, randomString } from '../../platform/security/digest';
import { contactOf } from './contact';
import { newUserInviteCode, referrerOf, unusedValue } from './invite';
import type { AccountServices } from './services';
import { assertContactFree, findUserByContact, takenError, toUser } from './users';

/** Generated usernames: `u` and 8 digits, valid under the protocol's USERNAME_RE. */
const randomUsername = () => `u${randomString(DIGITS, 8)}`;

/** What a new account starts with besides its generated username and invite code. */
export interface NewUser {
  email: string | null;
  area_code: string | null;
  mobile: string | null;
  phone: string | null;
  passwordHash: string;
  referrerId: number | null;
  lang: Lang;
}

/**
 * Inserts a new account, logged in now, with a free generated username and its own invite code, inside the caller's
 * transaction (registration by code, and wallet login's first sign-in).
 */
export async function insertUser(trx: Kysely<Database>, at: number, user: NewUser): Promise<UserRow> {
  const username = await unusedValue(
    randomUsername,
    async (name) =>
      (await trx.selectFrom('users').select('id').where('username', '=', name).executeTakeFirst()) !== undefined,
  );
  return trx
    .insertInto('users')
    .values({
      username,
      email: user.email,
      area_code: user.area_code,
      mobile: user.mobile,
      phone: user.phone,
      password_hash: user.passwordHash,
      fund_password_hash: null,
      invite_code: await newUserInviteCode(trx),
      referrer_id: user.referrerId,
      lang: user.lang,
      created_at: at,
      last_login_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Creates an account from a register request and logs it in. Every check that can fail runs before anything
 * is written (invite, free address, code), so a refused registration changes nothing but the code's try count.
 */
export async function register(
  s: AccountServices,
  input: z.output<typeof registerRequest>,
  request: { lang: Lang; userAgent?: string | undefined },
): Promise<SessionResponse> {
  const contact = contactOf(input);
  const referrerId = await referrerOf(s.db, input.invite_code);
  await assertContactFree(s.db, contact);
  const codeId = await s.codes.check(contact, 'register', input.code);
  const passwordHash = await s.hasher.hash(input.password);

  try {
    return await s.db.transaction().execute(async (trx) => {
      await s.codes.consume(trx, codeId);
      const row = await insertUser(trx, s.now(), {
        email: contact.kind === 'email' ? contact.email : null,
        area_code: contact.kind === 'mobile' ? contact.areaCode : null,
        mobile: contact.kind === 'mobile' ? contact.mobile : null,
        phone: contact.kind === 'mobile' ? contact.address : null,
        passwordHash,
        referrerId,
        lang: request.lang,
      });
      return { token: await s.sessions.create(row.id, trx, { userAgent: request.userAgent }), user: toUser(row) };
    });
  } catch (err) {
    // Two registrations for one address raced past assertContactFree; the unique index decided.
    if (isUniqueViolation(err) && (await findUserByContact(s.db, contact))) throw takenError(contact);
    throw err;
  }
}
