import { z } from 'zod/mini';
import {
  ACCOUNT_EVENT,
  type AccountEvent,
  accountEvent,
  VERIFICATION_LEVELS,
  VERIFICATION_STATES,
  type VerificationLevel,
  type VerificationState,
  verificationEventData,
  verificationState,
} from './account-events';
import { call, none } from './call-spec';
import { tickedField } from './fields';
import {
  MAX_UPLOAD_BYTES,
  UPLOAD_FILE_PATH,
  UPLOAD_IMAGE_PATH,
  UPLOAD_MIMES,
  type UploadMime,
  type UploadResponse,
  uploadCalls,
  uploadDeleteRequest,
  uploadIdField,
  uploadResponse,
} from './uploads';

/**
 * Identity verification (SPEC 3 "Verification", 4, 5): the shared rules of both sides. Messages are
 * keys of the `errors` locale namespace.
 */

export {
  ACCOUNT_EVENT,
  type AccountEvent,
  accountEvent,
  MAX_UPLOAD_BYTES,
  UPLOAD_FILE_PATH,
  UPLOAD_IMAGE_PATH,
  UPLOAD_MIMES,
  type UploadMime,
  type UploadResponse,
  uploadCalls,
  uploadDeleteRequest,
  uploadIdField,
  uploadResponse,
  VERIFICATION_LEVELS,
  VERIFICATION_STATES,
  type VerificationLevel,
  type VerificationState,
  verificationEventData,
  verificationState,
};

const text = (requiredKey: string, max: number) =>
  z
    .string({ error: requiredKey })
    .check(z.trim(), z.minLength(1, { error: requiredKey }), z.maxLength(max, { error: 'tooLong' }));

/** Letters and digits with optional spaces, dashes or slashes between them (passports, national IDs). */
export const ID_NUMBER_RE = /^[A-Za-z0-9](?:[A-Za-z0-9 /-]{2,38})[A-Za-z0-9]$/;

/** user/real_name: the basic level. `country` is an ISO 3166 alpha-2 code of the area_code list. */
export const basicVerificationRequest = z.object({
  country: text('countryRequired', 8).check(z.toUpperCase(), z.regex(/^[A-Z]{2}$/, { error: 'countryInvalid' })),
  name: text('realNameRequired', 100),
  id_number: text('idNumberRequired', 40).check(z.regex(ID_NUMBER_RE, { error: 'idNumberInvalid' })),
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
  .check(
    z.superRefine((v, ctx) => {
      if (v.back === v.front) ctx.addIssue({ code: 'custom', message: 'photosDistinct', path: ['back'] });
      else if (v.hold === v.front || v.hold === v.back) {
        ctx.addIssue({ code: 'custom', message: 'photosDistinct', path: ['hold'] });
      }
    }),
  );
export type AdvancedVerificationRequest = z.input<typeof advancedVerificationRequest>;

const levelInfo = z.object({
  state: verificationState,
  /** Why the last submission was rejected; null otherwise. */
  reason: z.nullable(z.string()),
  submitted_at: z.nullable(z.number()),
  reviewed_at: z.nullable(z.number()),
});

/**
 * user/real_name_info (an addition: SPEC 7 lists no read call for verification). The latest submission per level;
 * the basic fields come back masked (the page shows what was sent without repeating the whole ID number).
 */
export const realNameInfoResponse = z.object({
  basic: z.extend(levelInfo, {
    country: z.nullable(z.string()),
    name: z.nullable(z.string()),
    id_number: z.nullable(z.string()),
  }),
  advanced: levelInfo,
});
export type RealNameInfo = z.infer<typeof realNameInfoResponse>;

export const verificationSubmittedResponse = z.object({ id: z.number(), state: verificationState });

/** The verification calls (its domain names them in its contract; server/domains/compose.ts joins every table). */
export const identityCalls = {
  'user/real_name': call('POST', true, basicVerificationRequest, verificationSubmittedResponse),
  'user/real_name2': call('POST', true, advancedVerificationRequest, verificationSubmittedResponse),
  'user/real_name_info': call('GET', true, none, realNameInfoResponse),
} as const;
