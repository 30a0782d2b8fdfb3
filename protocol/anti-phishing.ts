import { z } from 'zod/mini';
import { call, emptyResponse, none } from './call-spec';

/**
 * The anti-phishing code (issue 28): a phrase the user chooses that every e-mail from the platform carries on its
 * first line, so an e-mail without it is not from the platform.
 */

export const ANTI_PHISHING_MIN = 4;
export const ANTI_PHISHING_MAX = 20;

/**
 * Letters and digits of any script with their combining marks (Thai vowels and tones, accents typed apart), single
 * spaces between words, 4 to 20 characters once composed (NFC).
 */
export const ANTI_PHISHING_RE = /^[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?: [\p{L}\p{N}][\p{L}\p{M}\p{N}]*)*$/u;

export const antiPhishingField = z
  .string({ error: 'antiPhishingInvalid' })
  .check(
    z.trim(),
    z.normalize('NFC'),
    z.minLength(ANTI_PHISHING_MIN, { error: 'antiPhishingInvalid' }),
    z.maxLength(ANTI_PHISHING_MAX, { error: 'antiPhishingInvalid' }),
    z.regex(ANTI_PHISHING_RE, { error: 'antiPhishingInvalid' }),
  );

export const antiPhishingResponse = z.object({ code: z.nullable(z.string()) });
export const setAntiPhishingRequest = z.object({ code: antiPhishingField });

export const antiPhishingCalls = {
  'user/anti_phishing': call('GET', true, none, antiPhishingResponse),
  'user/anti_phishing/set': call('POST', true, setAntiPhishingRequest, antiPhishingResponse),
  'user/anti_phishing/clear': call('POST', true, none, emptyResponse),
} as const;
