import { z } from 'zod/mini';
import { call, emptyResponse, none } from './call-spec';
import { recordIdField } from './fields';

/**
 * The security centre's signed-in devices (issue 28): the user's live sessions, each named from the browser's
 * User-Agent at sign-in, and the calls that end one of them or all but the current one. Only the caller's own
 * sessions are listed or ended.
 */

const whole = z.number().check(z.int());

/** One live session as the list shows it. */
export const signedInDevice = z.object({
  id: whole,
  /** Browser and system as read from the User-Agent (product names, not translated); null when unknown. */
  browser: z.nullable(z.string()),
  os: z.nullable(z.string()),
  /** A phone or tablet, as the User-Agent says. */
  mobile: z.boolean(),
  /** Sign-in time and last request (at most a minute behind), ms since the epoch. */
  created_at: whole,
  last_used_at: whole,
  /** The session of the request that asked. */
  current: z.boolean(),
});
export type SignedInDevice = z.infer<typeof signedInDevice>;

export const devicesResponse = z.object({ sessions: z.array(signedInDevice) });
export type Devices = z.infer<typeof devicesResponse>;

export const endSessionRequest = z.object({ id: recordIdField });
export const endOthersResponse = z.object({ ended: whole });

export const deviceCalls = {
  'user/sessions': call('GET', true, none, devicesResponse),
  'user/sessions/end': call('POST', true, endSessionRequest, emptyResponse),
  'user/sessions/end_others': call('POST', true, none, endOthersResponse),
} as const;
