import type { z } from 'zod/mini';
import type { fundPasswordRequest } from '../../../protocol';
import type { UserRow } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import type { Session } from '../../platform/security/sessions';
import { contactOfUser } from './contact';
import { verifyLoginPassword } from './login';
import type { AccountServices } from './services';
import { sessionUser } from './users';

/**
 * Sets or changes the 6-digit fund password that guards withdrawals and address changes. The user proves
 * themselves with the login password or with a `fund` code sent to their own contact (sms_other_mail).
 */
export async function setFundPassword(
  s: AccountServices,
  session: Session,
  input: z.output<typeof fundPasswordRequest>,
  /** The caller's IP: wrong login passwords are throttled per account and source. */
  source: string,
): Promise<void> {
  const user = await sessionUser(s.db, session.userId);
  let codeId: number | undefined;
  if (input.mode === 'password') {
    await verifyLoginPassword(s, user, input.login_password, source, {
      key: 'loginPasswordWrong',
      field: 'login_password',
    });
  } else {
    const contact = contactOfUser(user);
    if (!contact) throw new BusinessError('codeWrong', { field: 'code' });
    codeId = await s.codes.check(contact, 'fund', input.code);
  }
  const fundHash = await s.hasher.hash(input.password);
  await s.db.transaction().execute(async (trx) => {
    if (codeId !== undefined) await s.codes.consume(trx, codeId);
    await trx.updateTable('users').set({ fund_password_hash: fundHash }).where('id', '=', user.id).execute();
  });
}

export async function hasFundPassword(s: AccountServices, session: Session): Promise<boolean> {
  return (await sessionUser(s.db, session.userId)).fund_password_hash !== null;
}

/**
 * Checks the fund password an action asks for (a new withdrawal address, a withdrawal). None set is refused with
 * SPEC 8's "Set the fund password first"; wrong guesses are counted per user and lock the check for the rest of
 * the window, whichever action they came through. `field` is the form field the password was typed in.
 */
export async function verifyFundPassword(
  s: AccountServices,
  user: UserRow,
  password: string,
  field = 'fund_password',
): Promise<void> {
  if (user.fund_password_hash === null) throw new BusinessError('fundPasswordNotSet', { field });
  const limit = { bucket: `fund:fail:user:${user.id}`, ...s.limits.fundPasswordFailures };
  const locked = await s.limiter.check(limit);
  if (locked) {
    throw new BusinessError('fundPasswordLocked', {
      field,
      data: { retry_after: Math.ceil(locked.retryAfterMs / 1000) },
    });
  }
  if (!(await s.hasher.verify(user.fund_password_hash, password))) {
    await s.limiter.record(limit.bucket);
    throw new BusinessError('fundPasswordWrong', { field });
  }
  await s.limiter.clear(limit.bucket);
}
