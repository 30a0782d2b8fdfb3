import type { Backoff } from '../../platform/security/rate-limit';

/** At most `max` events per `windowMs`. */
export interface WindowLimit {
  max: number;
  windowMs: number;
}

/** The account area's abuse limits; buildApp takes overrides so tests can tighten or loosen them. */
export interface AccountLimits {
  /** Sends to one address: one per minute... */
  codeResend: WindowLimit;
  /** ...and a few per hour. */
  codePerAddress: WindowLimit;
  /** Sends from one IP, whatever the address. */
  codePerIp: WindowLimit;
  /**
   * Wrong login passwords for one account from one source (IP): after a few, that source waits longer and longer
   * before its next try counts. Nobody else is held up, so knowing an e-mail address does not lock its owner out.
   */
  loginFailuresPerSource: Backoff;
  /**
   * Wrong login passwords for one account from all sources together: once they pass this, every source that has
   * itself failed on the account waits (each new source gets one guess first); a source that never failed, such as
   * the owner on a fresh device, is not held up. Set so that one source alone, held back by the rule above, stays
   * under it.
   */
  loginFailuresPerAccount: Backoff;
  /** Login attempts from one IP. */
  loginPerIp: WindowLimit;
  /** Wrong fund passwords for one account (new address, withdrawal) before it is locked for the rest of the window. */
  fundPasswordFailures: WindowLimit;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const DEFAULT_ACCOUNT_LIMITS: AccountLimits = {
  codeResend: { max: 1, windowMs: MINUTE },
  codePerAddress: { max: 5, windowMs: HOUR },
  codePerIp: { max: 10, windowMs: HOUR },
  // 3 free, then 1 s, 2 s, 4 s ... up to 15 minutes; a source's failures count for a day.
  loginFailuresPerSource: { free: 3, baseMs: 1000, maxMs: 15 * MINUTE, windowMs: 24 * HOUR },
  // One source makes at most ~15 failures an hour under the rule above; from 20 on, every source that has failed
  // here waits 1 s, 2 s ... up to 5 minutes after the newest failure.
  loginFailuresPerAccount: { free: 20, baseMs: 1000, maxMs: 5 * MINUTE, windowMs: HOUR },
  loginPerIp: { max: 30, windowMs: 15 * MINUTE },
  fundPasswordFailures: { max: 5, windowMs: 15 * MINUTE },
};
