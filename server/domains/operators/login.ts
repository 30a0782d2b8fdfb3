import type { z } from 'zod/mini';
import type { OpsSession, opsLoginRequest } from '../../../protocol/ops-console';
import { recordAudit } from '../../platform/audit';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { sha256 } from '../../platform/security/digest';
import type { Backoff, BackoffLimit, RateLimiter } from '../../platform/security/rate-limit';
import { findOperator, type OperatorRow, type OperatorServices, rolesOf } from './accounts';
import { isSealedValueError, openTotpSecret } from './secrets';
import type { OperatorSessions } from './sessions';
import { withOperators } from './tables';
import { checkTotp } from './totp';

/**
 * The console login: name, password and the authenticator's current code. Every attempt that gets as far as a check
 * is audited, failed or not (what failed and the source address; never the password or the code). To the caller,
 * every failure looks the same (`opsLoginFailed`), whichever part was wrong, so the answer tells a guesser nothing.
 * Attempts are throttled like user logins (server/domains/account/login.ts): per source address, and growing delays
 * per operator name from one source and from all sources.
 */

export interface OpsLoginLimits {
  /** Attempts from one address, whatever the name. */
  perIp: { max: number; windowMs: number };
  /** Failures of one name from one address: a few free, then 1 s, 2 s, 4 s ... */
  failuresPerSource: Backoff;
  /** Failures of one name from all addresses together (only sources that failed on it themselves wait). */
  failuresPerName: Backoff;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const DEFAULT_OPS_LOGIN_LIMITS: OpsLoginLimits = {
  perIp: { max: 30, windowMs: 15 * MINUTE },
  failuresPerSource: { free: 3, baseMs: 1000, maxMs: 15 * MINUTE, windowMs: 24 * HOUR },
  failuresPerName: { free: 10, baseMs: 1000, maxMs: 15 * MINUTE, windowMs: HOUR },
};

export interface ConsoleServices extends OperatorServices {
  limiter: RateLimiter;
  limits: OpsLoginLimits;
  sessions: OperatorSessions;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void } | undefined;
}

export type LoginFailure =
  | 'unknown_name'
  | 'password'
  | 'disabled'
  | 'totp'
  | 'totp_reused'
  | 'totp_unreadable'
  | 'throttled';

const retryData = (ms: number) => ({ retry_after: Math.ceil(ms / 1000) });

/** Rate-limit keys name an operator by a digest of the typed name, so a mistyped password in the name stays out. */
const nameKey = (name: string) => `ops-login:fail:${sha256(name).slice(0, 32)}`;

function failureLimits(s: ConsoleServices, name: string, ip: string): BackoffLimit[] {
  const bucket = nameKey(name);
  const perSource = { bucket: `${bucket}|ip:${ip}`, ...s.limits.failuresPerSource };
  return [
    perSource,
    { bucket, ...s.limits.failuresPerName, onlyAfter: { bucket: perSource.bucket, windowMs: perSource.windowMs } },
  ];
}

/** The audit entry of a failed login (its own transaction: nothing else changes). */
async function auditFailure(
  s: ConsoleServices,
  row: OperatorRow | undefined,
  typedName: string,
  reason: LoginFailure,
  ip: string,
): Promise<void> {
  await writeTransaction(s.database, (trx) =>
    recordAudit(trx, {
      action: 'ops.login_failed',
      subjectType: 'operator',
      subjectId: row ? row.id : '-',
      // An unknown name may be anything typed into the field (a password, even): only a short digest of it is kept,
      // enough to see one name tried again and again.
      operator: row ? row.name : '-',
      detail: { reason, ip, ...(row ? {} : { name_digest: sha256(typedName).slice(0, 12) }) },
      at: s.now(),
    }),
  );
}

/** Logs an operator in; throws `opsLoginFailed` (or `rateLimited`) after auditing the failure. */
export async function opsLogin(
  s: ConsoleServices,
  input: z.output<typeof opsLoginRequest>,
  request: { ip: string },
): Promise<OpsSession> {
  const ip = request.ip;
  const ipRefusal = await s.limiter.take([{ bucket: `ops-login:ip:${ip}`, ...s.limits.perIp }]);
  if (ipRefusal) throw new BusinessError('rateLimited', { data: retryData(ipRefusal.retryAfterMs) });

  const row = await findOperator(s.database.db, input.name);
  const limits = failureLimits(s, input.name, ip);
  const attempt = await s.limiter.attempt(limits);
  const fail = async (reason: LoginFailure): Promise<never> => {
    await auditFailure(s, row, input.name, reason, ip);
    throw new BusinessError('opsLoginFailed');
  };
  if ('wait' in attempt) {
    await auditFailure(s, row, input.name, 'throttled', ip);
    throw new BusinessError('rateLimited', { data: retryData(attempt.wait.retryAfterMs) });
  }
  if (!row) {
    await s.hasher.verifyDecoy(input.password);
    return fail('unknown_name');
  }
  if (!(await s.hasher.verify(row.password_hash, input.password))) return fail('password');
  if (row.disabled_at !== null) return fail('disabled');
  let secret: string;
  try {
    secret = openTotpSecret(s.vault, row.id, row.totp_secret_enc);
  } catch (err) {
    if (!isSealedValueError(err)) throw err;
    s.log?.error(
      { operator: row.name },
      'operator TOTP secret does not open with the data key (see data-key check; operators reset-totp makes a new one)',
    );
    return fail('totp_unreadable');
  }
  const at = s.now();
  const check = checkTotp(secret, input.code, at, row.totp_last_step);
  if (!check.ok) return fail(check.reason === 'reused' ? 'totp_reused' : 'totp');

  const session = await writeTransaction(s.database, async (trx) => {
    // Conditional: of two logins with one code, only the first moves the step on; the other finds it used.
    const moved = await withOperators(trx)
      .updateTable('operators')
      .set({ totp_last_step: check.step, last_login_at: at })
      .where('id', '=', row.id)
      .where('disabled_at', 'is', null)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', check.step)]))
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return null;
    const created = await s.sessions.create(trx, row.id);
    await recordAudit(trx, {
      action: 'ops.login',
      subjectType: 'operator',
      subjectId: row.id,
      operator: row.name,
      detail: { ip },
      at,
    });
    return created;
  });
  if (!session) return fail('totp_reused');
  await s.limiter.clear(limits[0]!.bucket);
  await s.limiter.forget(attempt.ids);
  return {
    token: session.token,
    operator: { name: row.name, roles: rolesOf(row.roles) },
    expires_at: session.expiresAt,
    idle_ms: s.sessions.times.idleMs,
  };
}

/** Ends the caller's console session, audited. */
export async function opsLogout(s: ConsoleServices, session: { id: number; operator: { id: number; name: string } }) {
  await writeTransaction(s.database, async (trx) => {
    await s.sessions.revoke(session.id, trx);
    await recordAudit(trx, {
      action: 'ops.logout',
      subjectType: 'operator',
      subjectId: session.operator.id,
      operator: session.operator.name,
      at: s.now(),
    });
  });
}
