import type { Kysely } from 'kysely';
import type { User } from '../../../protocol';
import type { Database, UserRow } from '../../platform/db/schema';
import { BusinessError, SessionRequiredError } from '../../platform/errors';
import { type Contact, fieldOf } from './contact';

/** The protocol's view of a user: never the password hashes. */
export const toUser = (row: UserRow): User => ({
  id: row.id,
  username: row.username,
  email: row.email,
  mobile: row.mobile,
  area_code: row.area_code,
  invite_code: row.invite_code,
  lang: row.lang,
  has_fund_password: row.fund_password_hash !== null,
  created_at: row.created_at,
});

export const findUserByContact = (db: Kysely<Database>, contact: Contact): Promise<UserRow | undefined> =>
  db
    .selectFrom('users')
    .selectAll()
    .where(contact.kind === 'email' ? 'email' : 'phone', '=', contact.address)
    .executeTakeFirst();

/** The session's user. A session whose user vanished is treated like an expired one. */
export async function sessionUser(db: Kysely<Database>, userId: number): Promise<UserRow> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!row) throw new SessionRequiredError('sessionExpired');
  return row;
}

export const takenError = (contact: Contact): BusinessError =>
  new BusinessError(contact.kind === 'email' ? 'emailTaken' : 'mobileTaken', { field: fieldOf(contact) });

/** Refuses an e-mail or phone that already belongs to an account. */
export async function assertContactFree(db: Kysely<Database>, contact: Contact): Promise<void> {
  if (await findUserByContact(db, contact)) throw takenError(contact);
}
