import { z } from 'zod';

/**
 * Field rules shared by the server (which enforces them) and the client (which mirrors them).
 * Every message is a key of the `errors` locale namespace, so each side shows it in the user's language.
 * Requests are form-encoded, so every raw value is a string.
 */
export const MAX_TEXT = 200;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const FUND_PASSWORD_RE = /^\d{6}$/;
export const CODE_RE = /^\d{6}$/;
/** National number without the calling code: 5 to 15 digits (E.164 allows 15 in total). */
export const MOBILE_RE = /^\d{5,15}$/;
export const AREA_CODE_RE = /^\d{1,4}$/;
/** Pragmatic e-mail check: one @, a dot in the domain, no spaces. */
export const EMAIL_RE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
export const USERNAME_RE = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;

const text = (requiredKey: string, max = MAX_TEXT) =>
  z.string({ error: requiredKey }).trim().min(1, { error: requiredKey }).max(max, { error: 'tooLong' });

export const mobileField = text('phoneRequired', 32).regex(MOBILE_RE, { error: 'phoneInvalid' });
export const areaCodeField = text('areaCodeRequired', 8)
  .transform((v) => v.replace(/^\+/, ''))
  .pipe(z.string().regex(AREA_CODE_RE, { error: 'areaCodeInvalid' }));
export const emailField = text('emailRequired', 254).toLowerCase().regex(EMAIL_RE, { error: 'emailInvalid' });
export const codeField = text('codeRequired', 16).regex(CODE_RE, { error: 'codeInvalid' });
export const passwordField = z
  .string({ error: 'passwordRequired' })
  .min(1, { error: 'passwordRequired' })
  .max(PASSWORD_MAX, { error: 'tooLong' })
  .refine((v) => v.length >= PASSWORD_MIN, { error: 'passwordMin' });
export const repasswordField = z
  .string({ error: 'repasswordRequired' })
  .min(1, { error: 'repasswordRequired' })
  .max(PASSWORD_MAX, { error: 'tooLong' });
export const fundPasswordField = z
  .string({ error: 'fundPasswordRequired' })
  .min(1, { error: 'fundPasswordRequired' })
  .max(32, { error: 'tooLong' })
  .regex(FUND_PASSWORD_RE, { error: 'fundPasswordFormat' });
export const inviteCodeField = text('inviteRequired', 32);
export const accountField = text('accountRequired', 254);
/** A ticked checkbox arrives as '1' or 'true'. */
export const tickedField = (key: string) =>
  z
    .string({ error: key })
    .refine((v) => v === '1' || v === 'true', { error: key })
    .transform(() => true as const);

/** The id of one of the user's own records, as a form sends it. */
export const recordIdField = z
  .string({ error: 'invalidInput' })
  .trim()
  .regex(/^[1-9]\d{0,9}$/, { error: 'invalidInput' })
  .transform(Number);
