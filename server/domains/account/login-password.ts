import type { z } from 'zod/mini';
import type { forgetRequest, updatePasswordRequest } from '../../../protocol';
import { BusinessError } from '../../platform/errors';
import type { Session } from '../../platform/security/sessions';
import { contactOf } from './contact';
import { clearLoginFailures, verifyLoginPassword } from './login';
import type { AccountServices } from './services';
import { findUserByContact, sessionUser } from './users';

/**
 * Changes the password of a logged-in user who knows the current one. Every other session ends (a thief
 * holding one is locked out); the caller's own stays valid.
 */
export async function changePassword(
  s: AccountServices,
  session: Session,
  input: z.output<typeof updatePasswordRequest>,
  /** The caller's IP: wrong guesses are throttled per account and source. */
  source: string,
): Promise<void> {
  const user = await sessionUser(s.db, session.userId);
  await verifyLoginPassword(s, user, input.old_password, source, { key: 'oldPasswordWrong', field: 'old_password' });
  const passwordHash = await s.hasher.hash(input.password);
  await s.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
    await s.sessions.revokeAll(user.id, { keep: session.id, db: trx });
  });
}

/**
 * Sets a new password for a forgotten one, proven by a `forget` code sent to the account's phone or e-mail.
 * All sessions end, and so does any login lock (the owner has just proven who they are).
 */
export async function resetForgottenPassword(s: AccountServices, input: z.output<typeof forgetRequest>): Promise<void> {
  const contact = contactOf(input);
  const codeId = await s.codes.check(contact, 'forget', input.code);
  const user = await findUserByContact(s.db, contact);
  // Codes for `forget` are only issued to existing accounts; this guards an account deleted since.
  if (!user) throw new BusinessError('codeWrong', { field: 'code' });
  const passwordHash = await s.hasher.hash(input.password);
  await s.db.transaction().execute(async (trx) => {
    await s.codes.consume(trx, codeId);
    await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
    await s.sessions.revokeAll(user.id, { db: trx });
  });
  await clearLoginFailures(s, user.id);
}
