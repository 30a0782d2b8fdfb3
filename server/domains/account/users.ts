import type { Kysely } from 'kysely';
import type { User } from '../../../protocol';
import { RECORD_ID_MAX } from '../../../protocol/fields';
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

/** A user by id, username, e-mail or phone (`+49…`), as operators name them (the CLI, the console). */
export async function findUser(db: Kysely<Database>, who: string) {
  const word = who.trim();
  const query = db.selectFrom('users').select(['id', 'username', 'email', 'phone']);
  if (/^\d+$/.test(word)) {
    // An id no integer column holds names nobody (and PostgreSQL would refuse to compare it).
    const id = Number(word);
    return id <= RECORD_ID_MAX ? query.where('id', '=', id).executeTakeFirst() : undefined;
  }
  if (word.includes('@')) return query.where('email', '=', word.toLowerCase()).executeTakeFirst();
  if (word.startsWith('+')) return query.where('phone', '=', word).executeTakeFirst();
  return query.where('username', '=', word.toLowerCase()).executeTakeFirst();
}

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
