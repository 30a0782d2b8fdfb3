import type { z } from 'zod';
import { AREA_CODE_RE, type loginRequest, type SessionResponse } from '../../../protocol';
import type { UserRow } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import type { MessageKey } from '../../platform/i18n/messages';
import type { Limit } from '../../platform/security/rate-limit';
import { nationalNumber } from './contact';
import type { AccountServices } from './services';
import { toUser } from './users';

const retryData = (ms: number) => ({ retry_after: Math.ceil(ms / 1000) });

/** Failed password checks are counted per account, whichever identifier (or form) was used to name it. */
const failureLimit = (s: AccountServices, key: string): Limit => ({
  bucket: `login:fail:${key}`,
  ...s.limits.loginFailures,
});
const userKey = (userId: number) => `user:${userId}`;

/**
 * The account a login names: an e-mail (has '@'), a phone number (digits; with `area_code` the full number,
 * with a leading '+' the international form, else the national number alone when exactly one account has
 * it), or else a username (case-insensitive).
 */
export async function findLoginAccount(
  s: AccountServices,
  account: string,
  areaCode: string | undefined,
): Promise<UserRow | undefined> {
  const users = s.db.selectFrom('users').selectAll();
  if (account.includes('@')) return users.where('email', '=', account.toLowerCase()).executeTakeFirst();

  const digits = account.replace(/[\s()-]/g, '');
  if (/^\+?\d+$/.test(digits)) {
    if (digits.startsWith('+')) return users.where('phone', '=', digits).executeTakeFirst();
    const area = areaCode?.trim().replace(/^\+/, '');
    if (area && AREA_CODE_RE.test(area)) {
      return users.where('phone', '=', `+${area}${nationalNumber(digits)}`).executeTakeFirst();
    }
    const matches = await users.where('mobile', '=', nationalNumber(digits)).limit(2).execute();
    return matches.length === 1 ? matches[0] : undefined;
  }
  return users.where('username', '=', account.toLowerCase()).executeTakeFirst();
}

/**
 * Checks a user's login password anywhere it is asked for (login, password change, fund password), so
 * guesses through any of these count towards the same lock. `failure` is the message for a wrong password.
 */
export async function verifyLoginPassword(
  s: AccountServices,
  user: UserRow,
  password: string,
  failure: { key: MessageKey; field?: string },
): Promise<void> {
  const limit = failureLimit(s, userKey(user.id));
  const locked = await s.limiter.check(limit);
  if (locked) throw new BusinessError('loginLocked', { data: retryData(locked.retryAfterMs) });
  if (!(await s.hasher.verify(user.password_hash, password))) {
    await s.limiter.record(limit.bucket);
    throw new BusinessError(failure.key, failure.field ? { field: failure.field } : {});
  }
}

/** Forgets the failed attempts of a user (after a successful login or a password reset). */
export const clearLoginFailures = (s: AccountServices, userId: number) =>
  s.limiter.clear(failureLimit(s, userKey(userId)).bucket);

/**
 * Logs in by username, e-mail or phone. A wrong account and a wrong password look the same (same message,
 * about the same time); attempts are limited per IP, failures per account.
 */
export async function login(
  s: AccountServices,
  input: z.output<typeof loginRequest>,
  request: { ip: string },
): Promise<SessionResponse> {
  const ipRefusal = await s.limiter.take([{ bucket: `login:ip:${request.ip}`, ...s.limits.loginPerIp }]);
  if (ipRefusal) throw new BusinessError('rateLimited', { data: retryData(ipRefusal.retryAfterMs) });

  const user = await findLoginAccount(s, input.account, input.area_code);
  if (!user) {
    // Unknown accounts are locked like real ones, so the lock does not reveal which accounts exist.
    const limit = failureLimit(s, `account:${input.account.toLowerCase()}|${input.area_code ?? ''}`);
    const locked = await s.limiter.check(limit);
    if (locked) throw new BusinessError('loginLocked', { data: retryData(locked.retryAfterMs) });
    await s.hasher.verifyDecoy(input.password);
    await s.limiter.record(limit.bucket);
    throw new BusinessError('loginFailed');
  }

  await verifyLoginPassword(s, user, input.password, { key: 'loginFailed' });
  await clearLoginFailures(s, user.id);
  return s.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('users')
      .set({ last_login_at: s.now() })
      .where('id', '=', user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { token: await s.sessions.create(user.id, trx), user: toUser(row) };
  });
}
