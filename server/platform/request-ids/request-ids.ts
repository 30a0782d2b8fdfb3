import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import type { z } from 'zod/mini';
import type { Database } from '../db/schema';
import { BusinessError } from '../errors';
import { sha256 } from '../security/digest';

/**
 * One idempotency mechanism for every call that takes a client `request_id` (DESIGN "The ledger": a retried request
 * applies once). The router claims the id for (user, id) with the call's path and the digest of its validated
 * arguments before the handler runs: the same id with the same call and arguments goes on to the handler, whose own
 * replay answers with what the first request did; anything else (other arguments, or another call) is refused with
 * `requestIdReused` before it can touch money. Because the check sits in the router and keys on the request schema's
 * `request_id` field (the protocol's one name for a client request id), a money call added later with that field
 * cannot skip it; tests/integration/request-ids.test.ts fails for one without an argument builder.
 *
 * A request the handler refused (a BusinessError: below the minimum, want of balance) releases the claim it made, so
 * a refusal leaves nothing behind and its id may be sent again with corrected arguments, each answered with its own
 * reason. A service confirms the claim in the transaction of its effect (`confirmClaimedRequest`): a confirmed
 * claim is never released, even by a concurrent refused request with the same id, so where the service's own rows
 * cannot tell one request's arguments from another's (lever/add_margin) the claim still can.
 *
 * The services' own `request_digest` columns (spot, options, lever, finance, funding, c2c, ieo) keep their own digest
 * functions on purpose: rows written before the claims existed hold those digests and have no claim, so a retry of
 * such a request passes the claim (fresh) and only the row's digest can tell it from other arguments. Switching
 * those columns to `requestDigest` would refuse that retry; for every request since, the claim decides first and the
 * row's digest agrees with it (both are functions of the same validated arguments).
 */

/** The table of claims (migration 0025). */
export interface RequestIdsTable {
  user_id: number;
  /** The client's id, exactly as sent. */
  request_id: string;
  /** The call it was first sent to (`lever/add_margin`). */
  call_path: string;
  /** `requestDigest` of the first request's arguments. */
  request_digest: string;
  created_at: number;
  /** 1 once confirmed in the transaction of the effect (never released after that). */
  applied: number;
}

declare module '../db/schema' {
  interface Database {
    request_ids: RequestIdsTable;
  }
}

/** The request field that names a request (left out of its digest: it is the key, not an argument). */
export const REQUEST_ID_FIELD = 'request_id';

/**
 * Fields that authorise a request rather than describe it: a mistyped fund password answered `wrong password` is
 * sent again with the same id and the right password (the withdraw form keys its id without it), and a secret has no
 * business in a stored digest either.
 */
const AUTHORISATION_FIELDS: ReadonlySet<string> = new Set([REQUEST_ID_FIELD, 'fund_password']);

/** The form fields a request schema knows: an object's keys, through refinements, pipes and intersections. */
export function requestFieldNames(schema: z.ZodMiniType): string[] {
  const def = (schema as unknown as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
  if (!def) return [];
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  if (def.type === 'object' && shape) return Object.keys(shape);
  if (def.type === 'pipe') return requestFieldNames(def.in as z.ZodMiniType);
  if (def.type === 'intersection') {
    return [...requestFieldNames(def.left as z.ZodMiniType), ...requestFieldNames(def.right as z.ZodMiniType)];
  }
  if (def.type === 'union') return (def.options as z.ZodMiniType[]).flatMap(requestFieldNames);
  return [];
}

/** Whether a call's request schema carries a client request id (and so goes through `claimRequestId`). */
export const takesRequestId = (schema: z.ZodMiniType): boolean => requestFieldNames(schema).includes(REQUEST_ID_FIELD);

/**
 * The canonical digest of one request: the call's path and every argument but the id and authorisations, by field
 * name in a fixed order, as validated (trimmed, defaulted). Fields left out and fields sent empty differ only where
 * validation made them differ.
 */
export function requestDigest(path: string, input: Readonly<Record<string, unknown>>): string {
  const fields = Object.keys(input)
    .filter((key) => !AUTHORISATION_FIELDS.has(key) && input[key] !== undefined)
    .sort()
    .map((key) => [key, input[key]]);
  return sha256(JSON.stringify([path, fields]));
}

export interface RequestClaim {
  userId: number;
  requestId: string;
  path: string;
  digest: string;
  at: number;
}

/** The row a claim writes; `applied` 1 when it is written with the effect it claims. */
const claimRow = (claim: RequestClaim, applied: 0 | 1) => ({
  user_id: claim.userId,
  request_id: claim.requestId,
  call_path: claim.path,
  request_digest: claim.digest,
  created_at: claim.at,
  applied,
});

/**
 * Claims `requestId` for this user, call and digest, or finds the earlier claim: the same call and digest pass (a
 * retry; `fresh` false), anything else throws `requestIdReused`. Atomic in both dialects: of two concurrent first
 * claims one inserts and the other, waiting on the key, finds it. A claim can vanish between the insert that found it
 * and the read (a refused twin released it): then the insert is tried again, a few times, before it is a server error.
 */
export async function claimRequestId(db: Kysely<Database>, claim: RequestClaim): Promise<{ fresh: boolean }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const inserted = await db
      .insertInto('request_ids')
      .values(claimRow(claim, 0))
      .onConflict((oc) => oc.columns(['user_id', 'request_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { fresh: true };
    const earlier = await db
      .selectFrom('request_ids')
      .select(['call_path', 'request_digest'])
      .where('user_id', '=', claim.userId)
      .where('request_id', '=', claim.requestId)
      .executeTakeFirst();
    if (!earlier) continue;
    if (earlier.call_path !== claim.path || earlier.request_digest !== claim.digest) {
      throw new BusinessError('requestIdReused');
    }
    return { fresh: false };
  }
  throw new Error(`request id ${claim.requestId} kept vanishing while it was claimed`);
}

/** Releases a claim this request made (`fresh`) when the handler refused it, unless a service confirmed it meanwhile. */
export async function releaseRequestId(db: Kysely<Database>, claim: RequestClaim): Promise<void> {
  await db
    .deleteFrom('request_ids')
    .where('user_id', '=', claim.userId)
    .where('request_id', '=', claim.requestId)
    .where('call_path', '=', claim.path)
    .where('request_digest', '=', claim.digest)
    .where('applied', '=', 0)
    .execute();
}

/**
 * Confirms the claim inside the transaction that applies the request's effect (claiming it when a concurrent refusal
 * released it): the effect and its claim commit together. Throws `requestIdReused` when the id is claimed for
 * another call or other arguments.
 */
export async function confirmRequestId(trx: Kysely<Database>, claim: RequestClaim): Promise<void> {
  const confirmed = await trx
    .insertInto('request_ids')
    .values(claimRow(claim, 1))
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'request_id'])
        .doUpdateSet({ applied: 1 })
        .where('request_ids.call_path', '=', claim.path)
        .where('request_ids.request_digest', '=', claim.digest),
    )
    .executeTakeFirst();
  if (Number(confirmed.numInsertedOrUpdatedRows ?? 0) === 0) throw new BusinessError('requestIdReused');
}

/**
 * The claim of the request being served, for the services it reaches: the router (and the socket command runner)
 * runs the handler inside it, and a service confirms it in the transaction of its effect with
 * `confirmClaimedRequest`. The service never recomputes the path or the digest, so it confirms exactly what was
 * claimed; the walk in tests/integration/request-ids.test.ts fails for a request-id call whose success leaves the
 * claim unconfirmed, so a service cannot forget it unnoticed.
 */
const servedClaim = new AsyncLocalStorage<RequestClaim>();

/** Runs `work` (a handler) as the request holding `claim`. */
export function withRequestClaim<T>(claim: RequestClaim, work: () => Promise<T>): Promise<T> {
  return servedClaim.run(claim, work);
}

/**
 * Confirms the claim of the request being served, if any, in `trx` (the transaction of its effect): so a successful
 * effect always commits with a confirmed claim, and a claim a refused twin released can only have belonged to a
 * request that applied nothing. `userId` is the user the service acts for: a claim of someone else is never touched
 * (a handler acting for another user, e.g. the other side of a trade, confirms nothing). Outside a served request (the
 * ops CLI, a job) it does nothing.
 */
export async function confirmClaimedRequest(trx: Kysely<Database>, userId: number): Promise<void> {
  const claim = servedClaim.getStore();
  if (!claim || claim.userId !== userId) return;
  await confirmRequestId(trx, claim);
}
