import type { z } from 'zod/mini';
import { AREA_CODE_RE, type loginRequest, type SessionResponse } from '../../../protocol';
import type { UserRow } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import type { MessageKey } from '../../platform/i18n/messages';
import { sha256 } from '../../platform/security/digest';
import type { BackoffLimit } from '../../platform/security/rate-limit';
import { nationalNumber } from './contact';
import { announceNewDevice, isNewDevice } from './devices';
import type { AccountServices } from './services';
import { toUser } from './users';

const retryData = (ms: number) => ({ retry_after: Math.ceil(ms / 1000) });

/** Failed password checks are counted per account, whichever identifier (or form) was used to name it. */
const userKey = (userId: number) => `user:${userId}`;
/** A login naming no account is throttled like a real one (so throttling tells nothing); hashed to a short key. */
const unknownKey = (account: string, areaCode: string | undefined) =>
  `account:${sha256(`${account.toLowerCase()}|${areaCode ?? ''}`)}`;

/** The two backoffs of a password check: this account from this source (IP), and this account from anywhere. */
function passwordLimits(s: AccountServices, accountKey: string, source: string): [BackoffLimit, BackoffLimit] {
  const account = `login:fail:${accountKey}`;
  const perSource = { bucket: `${account}|ip:${source}`, ...s.limits.loginFailuresPerSource };
  // The account-wide backoff slows only sources that have already failed on this account: an attacker's every new
  // address gets one guess before it waits, and the owner on a fresh device is never held up by strangers' guesses.
  const onlyAfter = { bucket: perSource.bucket, windowMs: perSource.windowMs };
  return [perSource, { bucket: account, ...s.limits.loginFailuresPerAccount, onlyAfter }];
}

/**
 * Counts a password attempt as failed before it is checked (so parallel guesses cannot slip through one gap);
 * throws `rateLimited` with `retry_after` while this source, or the account as a whole, must still wait.
 */
async function takePasswordAttempt(s: AccountServices, limits: BackoffLimit[]): Promise<number[]> {
  const result = await s.limiter.attempt(limits);
  if ('wait' in result) throw new BusinessError('rateLimited', { data: retryData(result.wait.retryAfterMs) });
  return result.ids;
}

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
 * Checks a user's login password anywhere it is asked for (login, password change, fund password), so guesses
 * through any of these count alike: per account and `source` (the caller's IP) with growing delays, and per account
 * across all sources with a slower, capped backoff. A right password forgets this source's failures.
 * `failure` is the message for a wrong password.
 */
export async function verifyLoginPassword(
  s: AccountServices,
  user: UserRow,
  password: string,
  source: string,
  failure: { key: MessageKey; field?: string },
): Promise<void> {
  const limits = passwordLimits(s, userKey(user.id), source);
  const attempt = await takePasswordAttempt(s, limits);
  if (!(await s.hasher.verify(user.password_hash, password))) {
    throw new BusinessError(failure.key, failure.field ? { field: failure.field } : {});
  }
  await s.limiter.clear(limits[0].bucket);
  await s.limiter.forget(attempt);
}

/**
 * Forgets every failed attempt on a user's password, from every source (after a password reset or change: guesses at
 * the old password mean nothing any more).
 */
export const clearLoginFailures = (s: AccountServices, userId: number) =>
  s.limiter.clearWithSubBuckets(`login:fail:${userKey(userId)}`);

/**
 * Logs in by username, e-mail or phone. A wrong account and a wrong password look the same (same message,
 * about the same time); attempts are limited per IP, failures per account and IP and per account (see above).
 */
export async function login(
  s: AccountServices,
  input: z.output<typeof loginRequest>,
  request: { ip: string; userAgent?: string | undefined; site?: { scheme: string; host: string } | undefined },
): Promise<SessionResponse> {
  const ipRefusal = await s.limiter.take([{ bucket: `login:ip:${request.ip}`, ...s.limits.loginPerIp }]);
  if (ipRefusal) throw new BusinessError('rateLimited', { data: retryData(ipRefusal.retryAfterMs) });

  const user = await findLoginAccount(s, input.account, input.area_code);
  if (!user) {
    await takePasswordAttempt(s, passwordLimits(s, unknownKey(input.account, input.area_code), request.ip));
    await s.hasher.verifyDecoy(input.password);
    throw new BusinessError('loginFailed');
  }

  await verifyLoginPassword(s, user, input.password, request.ip, { key: 'loginFailed' });
  let mailNews = () => {};
  const answer = await s.db.transaction().execute(async (trx) => {
    const fresh = await isNewDevice(trx, user.id, request.userAgent);
    const row = await trx
      .updateTable('users')
      .set({ last_login_at: s.now() })
      .where('id', '=', user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const token = await s.sessions.create(user.id, trx, { userAgent: request.userAgent });
    if (fresh) {
      const { userAgent, site } = request;
      mailNews = await announceNewDevice(s, trx, { userId: row.id, email: row.email, lang: row.lang, userAgent, site });
    }
    return { token, user: toUser(row) };
  });
  // After the commit: the e-mail tells of a sign-in that happened.
  mailNews();
  return answer;
}
