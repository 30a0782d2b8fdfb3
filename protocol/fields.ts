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

/**
 * The largest id a record can have: ids are `integer` columns, and PostgreSQL refuses to compare one with a larger
 * number (an error, not "no row"), so a larger id is refused at the edge.
 */
export const RECORD_ID_MAX = 2_147_483_647;

/** The id of one of the user's own records, as a form sends it. */
export const recordIdField = z
  .string({ error: 'invalidInput' })
  .trim()
  .regex(/^[1-9]\d{0,9}$/, { error: 'invalidInput' })
  .transform(Number)
  .refine((id) => id <= RECORD_ID_MAX, { error: 'invalidInput' });

/**
 * A trading call's client id for one submission (a spot order, an option contract), sent again on a retry so that it
 * applies once; at most 48 characters because the server prefixes it for the ledger's 64.
 */
export const TRADE_REQUEST_ID_RE = /^[\x21-\x7e]{1,48}$/;
export const tradeRequestIdField = z
  .string({ error: 'requestIdInvalid' })
  .regex(TRADE_REQUEST_ID_RE, { error: 'requestIdInvalid' });

/** Form text that may be left out or empty: both read as not given, so a required-check can name the field. */
export const optionalTextField = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: 'invalidInput' })
    .optional()
    .transform((v) => (v === undefined || v === '' ? undefined : v));

/** Page size of a list call: 1 to 100 (as text in the query). */
export const listLimitField = z
  .string({ error: 'invalidInput' })
  .regex(/^\d{1,3}$/, { error: 'invalidInput' })
  .transform(Number)
  .pipe(z.number().int().min(1, { error: 'invalidInput' }).max(100, { error: 'invalidInput' }))
  .optional();

/** Cursor paging: the `next_before_id` of the previous page (stable while new rows arrive at the top). */
export const beforeIdField = z
  .string({ error: 'invalidInput' })
  .regex(/^[1-9]\d{0,9}$/, { error: 'invalidInput' })
  .transform(Number)
  .refine((id) => id <= RECORD_ID_MAX, { error: 'invalidInput' })
  .optional();
