import { z } from 'zod/mini';

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
  z
    .string({ error: requiredKey })
    .check(z.trim(), z.minLength(1, { error: requiredKey }), z.maxLength(max, { error: 'tooLong' }));

export const mobileField = text('phoneRequired', 32).check(z.regex(MOBILE_RE, { error: 'phoneInvalid' }));
export const areaCodeField = z.pipe(
  z.pipe(
    text('areaCodeRequired', 8),
    z.transform((v) => v.replace(/^\+/, '')),
  ),
  z.string().check(z.regex(AREA_CODE_RE, { error: 'areaCodeInvalid' })),
);
export const emailField = text('emailRequired', 254).check(
  z.toLowerCase(),
  z.regex(EMAIL_RE, { error: 'emailInvalid' }),
);
export const codeField = text('codeRequired', 16).check(z.regex(CODE_RE, { error: 'codeInvalid' }));
export const passwordField = z.string({ error: 'passwordRequired' }).check(
  z.minLength(1, { error: 'passwordRequired' }),
  z.maxLength(PASSWORD_MAX, { error: 'tooLong' }),
  z.refine((v) => v.length >= PASSWORD_MIN, { error: 'passwordMin' }),
);
export const repasswordField = z
  .string({ error: 'repasswordRequired' })
  .check(z.minLength(1, { error: 'repasswordRequired' }), z.maxLength(PASSWORD_MAX, { error: 'tooLong' }));
export const fundPasswordField = z
  .string({ error: 'fundPasswordRequired' })
  .check(
    z.minLength(1, { error: 'fundPasswordRequired' }),
    z.maxLength(32, { error: 'tooLong' }),
    z.regex(FUND_PASSWORD_RE, { error: 'fundPasswordFormat' }),
  );
export const inviteCodeField = text('inviteRequired', 32);
export const accountField = text('accountRequired', 254);
/** A ticked checkbox arrives as '1' or 'true'. */
export const tickedField = (key: string) =>
  z.pipe(
    z.string({ error: key }).check(z.refine((v) => v === '1' || v === 'true', { error: key })),
    z.transform(() => true as const),
  );

/**
 * The largest id a record can have: ids are `integer` columns, and PostgreSQL refuses to compare one with a larger
 * number (an error, not "no row"), so a larger id is refused at the edge.
 */
export const RECORD_ID_MAX = 2_147_483_647;

/** The id of one of the user's own records, as a form sends it. */
export const recordIdField = z
  .pipe(
    z.string({ error: 'invalidInput' }).check(z.trim(), z.regex(/^[1-9]\d{0,9}$/, { error: 'invalidInput' })),
    z.transform(Number),
  )
  .check(z.refine((id) => id <= RECORD_ID_MAX, { error: 'invalidInput' }));

/**
 * A trading call's client id for one submission (a spot order, an option contract), sent again on a retry so that it
 * applies once; at most 48 characters because the server prefixes it for the ledger's 64.
 */
export const TRADE_REQUEST_ID_RE = /^[\x21-\x7e]{1,48}$/;
export const tradeRequestIdField = z
  .string({ error: 'requestIdInvalid' })
  .check(z.regex(TRADE_REQUEST_ID_RE, { error: 'requestIdInvalid' }));

/** Form text that may be left out or empty: both read as not given, so a required-check can name the field. */
export const optionalTextField = (max: number) =>
  z.pipe(
    z.optional(z.string().check(z.trim(), z.maxLength(max, { error: 'invalidInput' }))),
    z.transform((v) => (v === undefined || v === '' ? undefined : v)),
  );

/** Page size of a list call: 1 to 100 (as text in the query). */
export const listLimitField = z.optional(
  z.pipe(
    z.pipe(
      z.string({ error: 'invalidInput' }).check(z.regex(/^\d{1,3}$/, { error: 'invalidInput' })),
      z.transform(Number),
    ),
    z.number().check(z.int(), z.gte(1, { error: 'invalidInput' }), z.lte(100, { error: 'invalidInput' })),
  ),
);

/** Cursor paging: the `next_before_id` of the previous page (stable while new rows arrive at the top). */
export const beforeIdField = z.optional(
  z
    .pipe(
      z.string({ error: 'invalidInput' }).check(z.regex(/^[1-9]\d{0,9}$/, { error: 'invalidInput' })),
      z.transform(Number),
    )
    .check(z.refine((id) => id <= RECORD_ID_MAX, { error: 'invalidInput' })),
);
