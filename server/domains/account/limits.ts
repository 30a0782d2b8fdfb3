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
  /** Wrong login passwords for one account before it is locked for the rest of the window. */
  loginFailures: WindowLimit;
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
  loginFailures: { max: 5, windowMs: 15 * MINUTE },
  loginPerIp: { max: 30, windowMs: 15 * MINUTE },
  fundPasswordFailures: { max: 5, windowMs: 15 * MINUTE },
};
