import { z } from 'zod/mini';

/**
 * The response envelope of every /api call (SPEC 7).
 * Success: {type:'ok', code:1, message:'OK', data}. Business failure: {type:'error', code:0, message}.
 * A missing, invalid or expired session on a protected call: {type:999, code:0, message}.
 * `message` is already in the caller's language (chosen by the `lang` header).
 */
export const SESSION_EXPIRED_TYPE = 999 as const;

export const okEnvelope = <T extends z.ZodMiniType>(data: T) =>
  z.object({ type: z.literal('ok'), code: z.literal(1), message: z.literal('OK'), data });

export const errorEnvelope = z.object({
  type: z.literal('error'),
  code: z.literal(0),
  message: z.string(),
  /** Field the failure refers to, when one does (lets a form mark it). */
  field: z.optional(z.string()),
  /**
   * Why, as the key of the errors table (`verificationRequired`, `insufficientBalance`, …): what client code decides
   * on, never the translated message.
   */
  reason: z.string(),
});

export const sessionExpiredEnvelope = z.object({
  type: z.literal(SESSION_EXPIRED_TYPE),
  code: z.literal(0),
  message: z.string(),
});

/** Loose shape used by the client before it knows which call answered. */
export const anyEnvelope = z.object({
  type: z.union([z.string(), z.number()]),
  code: z.optional(z.union([z.number(), z.string()])),
  message: z.optional(z.string()),
  msg: z.optional(z.string()),
  reason: z.optional(z.string()),
  data: z.optional(z.unknown()),
});
export type AnyEnvelope = z.infer<typeof anyEnvelope>;

/** Request headers every call carries (SPEC 7). */
export const AUTH_HEADER = 'authorization';
export const LANG_HEADER = 'lang';
