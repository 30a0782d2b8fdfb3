import { z } from 'zod/mini';
import { beforeIdField, listLimitField, recordIdField } from './fields';

/**
 * The support console (`/ops` in the browser, `/api/ops/...` on the server): operators, who are no users, review
 * deposits, withdrawals and identity verifications and read the audit log. The console's calls are a table of their
 * own, served in a scope of their own: they carry the operator's token in OPS_TOKEN_HEADER and never look at a user's
 * Authorization header, so a user's session opens nothing here. Answers use the envelope of every /api call; a
 * missing or ended console session is the 999 envelope, a role the operator lacks the error `opsForbidden`.
 */

/** The request header with the console session's token (never `Authorization`: that is the user's). */
export const OPS_TOKEN_HEADER = 'x-ops-token';

/**
 * What an operator may do: support (inbox, help articles, news), reviewer (funding, identity, C2C appeals), qa (the
 * order machines and their model-based test paths, read only), admin (all).
 */
export const OPS_ROLES = ['support', 'reviewer', 'qa', 'admin'] as const;
export type OpsRole = (typeof OPS_ROLES)[number];
export const isOpsRole = (v: unknown): v is OpsRole =>
  typeof v === 'string' && (OPS_ROLES as readonly string[]).includes(v);

/** Whether an operator with `roles` may use something that needs `needed` (admin may do everything). */
export const hasOpsRole = (roles: readonly OpsRole[], needed: OpsRole): boolean =>
  roles.includes('admin') || roles.includes(needed);

/** Operator names: lower case letters, digits, dot, dash and underscore, 2 to 32, starting with a letter. */
export const OPS_NAME_RE = /^[a-z][a-z0-9._-]{1,31}$/;
/** Longest rejection reason (the review services' limit). */
export const OPS_REASON_MAX = 500;

/**
 * Who may call: anyone (the login), any signed-in operator, or an operator with the role (admin always passes).
 */
export type OpsAccess = 'public' | 'session' | OpsRole;

export interface OpsCallSpec<Req extends z.ZodMiniType = z.ZodMiniType, Res extends z.ZodMiniType = z.ZodMiniType> {
  method: 'GET' | 'POST';
  access: OpsAccess;
  request: Req;
  response: Res;
}

export type OpsCallTable = Readonly<Record<string, OpsCallSpec>>;

export const opsCall = <Req extends z.ZodMiniType, Res extends z.ZodMiniType>(
  method: OpsCallSpec['method'],
  access: OpsAccess,
  request: Req,
  response: Res,
): OpsCallSpec<Req, Res> => ({ method, access, request, response });

const text = (requiredKey: string, max: number) =>
  z
    .string({ error: requiredKey })
    .check(z.trim(), z.minLength(1, { error: requiredKey }), z.maxLength(max, { error: 'tooLong' }));

export const opsNameField = text('opsNameRequired', 64).check(
  z.toLowerCase(),
  z.regex(OPS_NAME_RE, { error: 'opsLoginFailed' }),
);
export const opsPasswordField = z
  .string({ error: 'passwordRequired' })
  .check(z.minLength(1, { error: 'passwordRequired' }), z.maxLength(128, { error: 'tooLong' }));
/** The authenticator app's six digits (spaces, as some apps show them, are dropped). */
export const opsTotpField = z.pipe(
  z.pipe(
    z.string({ error: 'opsCodeRequired' }),
    z.transform((v) => v.replace(/\s+/g, '')),
  ),
  z.string().check(z.minLength(1, { error: 'opsCodeRequired' }), z.regex(/^\d{6}$/, { error: 'opsCodeFormat' })),
);
export const opsReasonField = z.pipe(
  z.pipe(
    z.string({ error: 'opsReasonRequired' }),
    z.transform((v) => v.trim().replace(/\s+/g, ' ')),
  ),
  z.string().check(z.minLength(1, { error: 'opsReasonRequired' }), z.maxLength(OPS_REASON_MAX, { error: 'tooLong' })),
);

export const opsLoginRequest = z.object({ name: opsNameField, password: opsPasswordField, code: opsTotpField });

export const opsOperator = z.object({
  name: z.string(),
  roles: z.array(z.enum(OPS_ROLES)),
});
export type OpsOperator = z.infer<typeof opsOperator>;

export const opsSessionResponse = z.object({
  token: z.string(),
  operator: opsOperator,
  /** When the session ends at the latest (ms); without requests it ends earlier (idle_ms). */
  expires_at: z.number().check(z.int()),
  idle_ms: z.number().check(z.int()),
});
export type OpsSession = z.infer<typeof opsSessionResponse>;

const none = z.object({});
const done = z.object({});

/** One row's decision: approve (no fields) or reject with a reason the user sees. */
export const opsIdRequest = z.object({ id: recordIdField });
export const opsRejectRequest = z.object({ id: recordIdField, reason: opsReasonField });
export const opsDecisionResponse = z.object({
  id: z.number().check(z.int()),
  state: z.enum(['passed', 'rejected', 'verified']),
});

/** Rows waiting for a decision, oldest first (and any an earlier version left half-decided, to finish). */
export const opsDeposit = z.object({
  id: z.number().check(z.int()),
  user_id: z.number().check(z.int()),
  username: z.string(),
  method: z.enum(['crypto', 'bank']),
  coin: z.string(),
  chain: z.nullable(z.string()),
  amount: z.string(),
  hash: z.nullable(z.string()),
  card_last4: z.nullable(z.string()),
  /** The proof image (GET ops/deposits/proof?id=<deposit>). */
  proof: z.number().check(z.int()),
  state: z.string(),
  created_at: z.number().check(z.int()),
});
export type OpsDeposit = z.infer<typeof opsDeposit>;

export const opsWithdrawal = z.object({
  id: z.number().check(z.int()),
  user_id: z.number().check(z.int()),
  username: z.string(),
  coin: z.string(),
  chain: z.string(),
  address: z.string(),
  amount: z.string(),
  fee: z.string(),
  remark: z.nullable(z.string()),
  state: z.string(),
  created_at: z.number().check(z.int()),
});
export type OpsWithdrawal = z.infer<typeof opsWithdrawal>;

export const KYC_PHOTO_SIDES = ['front', 'back', 'hold'] as const;
export type KycPhotoSide = (typeof KYC_PHOTO_SIDES)[number];

export const opsVerification = z.object({
  id: z.number().check(z.int()),
  user_id: z.number().check(z.int()),
  username: z.string(),
  level: z.enum(['basic', 'advanced']),
  created_at: z.number().check(z.int()),
  /**
   * Unmasked, for the reviewer to compare with the photos: a basic submission's own details; for an advanced one, the
   * identity the user verified at the basic level (the photos must show that person and document).
   */
  country: z.nullable(z.string()),
  name: z.nullable(z.string()),
  id_number: z.nullable(z.string()),
  address: z.nullable(z.string()),
  /** The photos an advanced submission carries (GET ops/kyc/photo?id=<verification>&side=<side>). */
  photos: z.array(z.enum(KYC_PHOTO_SIDES)),
});
export type OpsVerification = z.infer<typeof opsVerification>;

export const opsAuditEntry = z.object({
  id: z.number().check(z.int()),
  at: z.number().check(z.int()),
  operator: z.string(),
  action: z.string(),
  subject_type: z.string(),
  subject_id: z.string(),
  detail: z.looseObject({}),
});
export type OpsAuditEntry = z.infer<typeof opsAuditEntry>;

export const opsAuditRequest = z.object({ before_id: beforeIdField, limit: listLimitField });
export const opsAuditResponse = z.object({
  items: z.array(opsAuditEntry),
  next_before_id: z.nullable(z.number().check(z.int())),
});

/** The images of a review, served only to reviewers and only while the row waits for a decision. */
export const OPS_KYC_PHOTO_PATH = 'ops/kyc/photo';
export const OPS_DEPOSIT_PROOF_PATH = 'ops/deposits/proof';
export const opsKycPhotoRequest = z.object({
  id: recordIdField,
  side: z.enum(KYC_PHOTO_SIDES, { error: 'invalidInput' }),
});

/** The console's calls by path (relative to /api). */
export const opsConsoleCalls = {
  'ops/login': opsCall('POST', 'public', opsLoginRequest, opsSessionResponse),
  'ops/logout': opsCall('POST', 'session', none, done),
  'ops/me': opsCall('GET', 'session', none, opsOperator),
  'ops/deposits': opsCall('GET', 'reviewer', none, z.object({ items: z.array(opsDeposit) })),
  'ops/deposits/approve': opsCall('POST', 'reviewer', opsIdRequest, opsDecisionResponse),
  'ops/deposits/reject': opsCall('POST', 'reviewer', opsRejectRequest, opsDecisionResponse),
  'ops/withdrawals': opsCall('GET', 'reviewer', none, z.object({ items: z.array(opsWithdrawal) })),
  'ops/withdrawals/approve': opsCall('POST', 'reviewer', opsIdRequest, opsDecisionResponse),
  'ops/withdrawals/reject': opsCall('POST', 'reviewer', opsRejectRequest, opsDecisionResponse),
  'ops/kyc': opsCall('GET', 'reviewer', none, z.object({ items: z.array(opsVerification) })),
  'ops/kyc/approve': opsCall('POST', 'reviewer', opsIdRequest, opsDecisionResponse),
  'ops/kyc/reject': opsCall('POST', 'reviewer', opsRejectRequest, opsDecisionResponse),
  'ops/audit': opsCall('GET', 'admin', opsAuditRequest, opsAuditResponse),
} as const;

export type OpsConsoleCalls = typeof opsConsoleCalls;
export type OpsConsolePath = keyof OpsConsoleCalls;
