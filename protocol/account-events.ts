import { z } from 'zod/mini';

/**
 * The user's private `account` socket event (sent to the user's room only) and the data of each kind: a
 * verification reviewed, a deposit or withdrawal that changed state. The client follows these from the start
 * (src/data/account-events.ts), so they live apart from the areas' calls and forms.
 */

/** SPEC 4: not verified, under review, verified; plus rejected (with the operator's reason). */
export const VERIFICATION_STATES = ['none', 'pending', 'verified', 'rejected'] as const;
export const verificationState = z.enum(VERIFICATION_STATES);
export type VerificationState = z.infer<typeof verificationState>;
export const VERIFICATION_LEVELS = ['basic', 'advanced'] as const;
export type VerificationLevel = (typeof VERIFICATION_LEVELS)[number];

/** Deposit records and withdrawals: SPEC 4's passed, rejected, under review. */
export const FUNDING_STATES = ['pending', 'passed', 'rejected'] as const;
export const fundingState = z.enum(FUNDING_STATES);
export type FundingState = z.infer<typeof fundingState>;

/** The private socket event (room of the user): `account` with a kind and its data. */
export const ACCOUNT_EVENT = 'account';
export const accountEvent = z.object({ kind: z.string(), data: z.unknown() });
export type AccountEvent = z.infer<typeof accountEvent>;
/** data of an `account` event of kind `verification`. */
export const verificationEventData = z.object({
  level: z.enum(VERIFICATION_LEVELS),
  state: verificationState,
  reason: z.nullable(z.string()),
});

/**
 * `account` socket event of a price alert that fired (protocol/alerts.ts has its data): here, beside the other
 * kinds, because the shell follows it from the start and must not load the alerts schemas to do so.
 */
export const ALERT_FIRED_EVENT = 'alert';

/**
 * `account` socket event sent to all of a user's devices when one of their sessions was ended from another
 * (protocol/devices.ts): each checks whether it was its own, and the list of devices refreshes.
 */
export const SESSION_ENDED_EVENT = 'session_ended';

/**
 * `account` socket event sent to a user's open devices when the account was signed in on a device it had not been
 * signed in on before (browser and system from its User-Agent, either null when unread; the time, ms since the epoch).
 */
export const NEW_SIGN_IN_EVENT = 'new_sign_in';
export const newSignInData = z.object({
  browser: z.nullable(z.string()),
  os: z.nullable(z.string()),
  at: z.number(),
});
export type NewSignIn = z.infer<typeof newSignInData>;

/** `account` socket events of kinds `deposit` and `withdrawal`: a record changed state. */
export const DEPOSIT_EVENT = 'deposit';
export const WITHDRAWAL_EVENT = 'withdrawal';
export const fundingEventData = z.object({
  id: z.number().check(z.int()),
  state: fundingState,
  reason: z.nullable(z.string()),
});
export type FundingEventData = z.infer<typeof fundingEventData>;
