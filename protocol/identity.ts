import { z } from 'zod';
import { tickedField } from './fields';

/**
 * Uploads and identity verification (SPEC 3 "Verification", 4, 5): the shared rules of both sides. Messages are
 * keys of the `errors` locale namespace.
 */

/** SPEC 5 "a maximum file size": the server refuses bigger files, the client checks before sending. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** The image types accepted; the server tells them by their first bytes, never by the name. */
export const UPLOAD_MIMES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type UploadMime = (typeof UPLOAD_MIMES)[number];

/** The multipart route (not in calls.ts: calls are form or JSON). Field name of the file: `file`. */
export const UPLOAD_IMAGE_PATH = 'upload/image';
/** GET with `?id=`: the image's bytes, for its owner only. */
export const UPLOAD_FILE_PATH = 'upload/file';

export const uploadResponse = z.object({ id: z.number(), size: z.number(), mime: z.enum(UPLOAD_MIMES) });
export type UploadResponse = z.infer<typeof uploadResponse>;

/** An upload's id as a form sends it: digits. `key` is the message when it is missing. */
export const uploadIdField = (key: string) =>
  z
    .string({ error: key })
    .trim()
    .min(1, { error: key })
    .max(12, { error: 'invalidInput' })
    .regex(/^[1-9]\d*$/, { error: 'invalidInput' })
    .transform(Number);

export const uploadDeleteRequest = z.object({ id: uploadIdField('uploadNotFound') });

const text = (requiredKey: string, max: number) =>
  z.string({ error: requiredKey }).trim().min(1, { error: requiredKey }).max(max, { error: 'tooLong' });

/** Letters and digits with optional spaces, dashes or slashes between them (passports, national IDs). */
export const ID_NUMBER_RE = /^[A-Za-z0-9](?:[A-Za-z0-9 /-]{2,38})[A-Za-z0-9]$/;

/** user/real_name: the basic level. `country` is an ISO 3166 alpha-2 code of the area_code list. */
export const basicVerificationRequest = z.object({
  country: text('countryRequired', 8)
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, { error: 'countryInvalid' }),
  name: text('realNameRequired', 100),
  id_number: text('idNumberRequired', 40).regex(ID_NUMBER_RE, { error: 'idNumberInvalid' }),
  address: text('addressRequired', 200),
  consent: tickedField('consentRequired'),
});
export type BasicVerificationRequest = z.input<typeof basicVerificationRequest>;

/** user/real_name2: the advanced level, three uploaded photos of the ID (front, back, held by the user). */
export const advancedVerificationRequest = z
  .object({
    front: uploadIdField('frontRequired'),
    back: uploadIdField('backRequired'),
    hold: uploadIdField('holdRequired'),
    consent: tickedField('consentRequired'),
  })
  .superRefine((v, ctx) => {
    if (v.back === v.front) ctx.addIssue({ code: 'custom', message: 'photosDistinct', path: ['back'] });
    else if (v.hold === v.front || v.hold === v.back) {
      ctx.addIssue({ code: 'custom', message: 'photosDistinct', path: ['hold'] });
    }
  });
export type AdvancedVerificationRequest = z.input<typeof advancedVerificationRequest>;

/** SPEC 4: not verified, under review, verified; plus rejected (with the operator's reason). */
export const VERIFICATION_STATES = ['none', 'pending', 'verified', 'rejected'] as const;
export const verificationState = z.enum(VERIFICATION_STATES);
export type VerificationState = z.infer<typeof verificationState>;
export const VERIFICATION_LEVELS = ['basic', 'advanced'] as const;
export type VerificationLevel = (typeof VERIFICATION_LEVELS)[number];

const levelInfo = z.object({
  state: verificationState,
  /** Why the last submission was rejected; null otherwise. */
  reason: z.string().nullable(),
  submitted_at: z.number().nullable(),
  reviewed_at: z.number().nullable(),
});

/**
 * user/real_name_info (an addition: SPEC 7 lists no read call for verification). The latest submission per level;
 * the basic fields come back masked (the page shows what was sent without repeating the whole ID number).
 */
export const realNameInfoResponse = z.object({
  basic: levelInfo.extend({
    country: z.string().nullable(),
    name: z.string().nullable(),
    id_number: z.string().nullable(),
  }),
  advanced: levelInfo,
});
export type RealNameInfo = z.infer<typeof realNameInfoResponse>;

export const verificationSubmittedResponse = z.object({ id: z.number(), state: verificationState });

/** The private socket event (room of the user): `account` with a kind and its data. */
export const ACCOUNT_EVENT = 'account';
export const accountEvent = z.object({ kind: z.string(), data: z.unknown() });
export type AccountEvent = z.infer<typeof accountEvent>;
/** data of an `account` event of kind `verification`. */
export const verificationEventData = z.object({
  level: z.enum(VERIFICATION_LEVELS),
  state: verificationState,
  reason: z.string().nullable(),
});
