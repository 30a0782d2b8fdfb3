import type { z } from 'zod';
import type { fundPasswordRequest } from '../../../protocol';
import { BusinessError } from '../../errors';
import { contactOfUser } from './contact';
import { verifyLoginPassword } from './login';
import type { AccountServices } from './services';
import type { Session } from './sessions';
import { sessionUser } from './users';

/**
 * Sets or changes the 6-digit fund password that guards withdrawals and address changes. The user proves
 * themselves with the login password or with a `fund` code sent to their own contact (sms_other_mail).
 */
export async function setFundPassword(
  s: AccountServices,
  session: Session,
  input: z.output<typeof fundPasswordRequest>,
): Promise<void> {
  const user = await sessionUser(s.db, session.userId);
  let codeId: number | undefined;
  if (input.mode === 'password') {
    await verifyLoginPassword(s, user, input.login_password, { key: 'loginPasswordWrong', field: 'login_password' });
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
