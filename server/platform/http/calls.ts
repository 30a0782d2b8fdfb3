import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod/mini';
import { AUTH_HEADER, type CallSpec, type CallTable, type Lang } from '../../../protocol';
import type { Database } from '../db/schema';
import { BusinessError, SessionRequiredError } from '../errors';
import { isMessageKey } from '../i18n/messages';
import { claimRequestId, releaseRequestId, requestDigest, takesRequestId, withRequestClaim } from '../request-ids';
import { type Session, type Sessions, tokenFromHeader } from '../security/sessions';
import { errorBody, okBody, sessionExpiredBody } from './envelope';
import { requestLang } from './errors';
import { BODY_DEPTH_MAX, nestsDeeperThan } from './nesting';

/** What a handler knows about the request besides its validated fields. */
export interface CallContext {
  lang: Lang;
  ip: string;
  /** The live session when the request carries a valid token; always set for `auth: true` calls. */
  session: Session | null;
  /** Where the request was sent: scheme and Host (X-Forwarded-* only under trustProxy). Wallet login checks it. */
  site?: { scheme: string; host: string };
  /** The browser's User-Agent header: a session started here keeps it to name the device in the user's list. */
  userAgent?: string | undefined;
}

/** For handlers of `auth: true` calls: the session the router already checked. */
export function requireSession(ctx: CallContext): Session {
  if (!ctx.session) throw new SessionRequiredError('notLoggedIn');
  return ctx.session;
}

export type CallHandler<S extends CallSpec> = (
  input: z.output<S['request']>,
  ctx: CallContext,
) => Promise<z.output<S['response']>>;

/**
 * One handler per call of a table: the domain that names the table in its contract must handle all of it, so a call
 * added to protocol/<area>.ts without a handler fails the type check.
 */
export type CallHandlers<T extends CallTable> = { [P in keyof T]: CallHandler<T[P]> };

/** A call as the router serves it: its path, spec and handler (domains/compose.ts pairs them, path by path). */
export interface CallRoute {
  path: string;
  spec: CallSpec;
  /** Takes the input as the spec's request schema parsed it. */
  handle: (input: unknown, ctx: CallContext) => Promise<unknown>;
}

/**
 * Why a body is no form: not an object at all, nested deeper than BODY_DEPTH_MAX, a JSON number somewhere in it, or
 * a NUL character in a text (the path in `field`).
 */
type FormProblem =
  | { key: 'bodyMalformed' | 'bodyTooDeep'; field?: undefined }
  | { key: 'jsonNumberRefused' | 'invalidInput'; field: string };

/**
 * The first value no form may carry, with its path (e.g. `amount`, `items.0.qty`), or null when there is none:
 * a JSON number, or a text with a NUL character (no field means one, and PostgreSQL cannot store it in text).
 * Recursive, so only for a value already known to nest at most BODY_DEPTH_MAX levels.
 */
function firstRefused(
  value: unknown,
  path: string,
): { key: 'jsonNumberRefused' | 'invalidInput'; field: string } | null {
  if (typeof value === 'number') return { key: 'jsonNumberRefused', field: path };
  if (typeof value === 'string') return value.includes('\u0000') ? { key: 'invalidInput', field: path } : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, inner] of Object.entries(value)) {
    const found = firstRefused(inner, path ? `${path}.${key}` : key);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Form and query values arrive as strings. A JSON body may carry strings and booleans (read as the strings a form
 * would have sent), never numbers: JSON.parse has already turned `1.0000000000000001` into 1 and `1.5e2` into 150,
 * so the exact text the client meant is gone and no rule could check it as it checks the same text in a form.
 * Anything that is not an object (a JSON array, a bare string) is no form, nor is a body nested deeper than any form.
 */
export function formFields(raw: unknown): { fields: Record<string, unknown> } | { problem: FormProblem } {
  if (raw === undefined || raw === null) return { fields: {} };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { problem: { key: 'bodyMalformed' } };
  if (nestsDeeperThan(raw, BODY_DEPTH_MAX)) return { problem: { key: 'bodyTooDeep' } };
  const refused = firstRefused(raw, '');
  if (refused !== null) return { problem: refused };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    fields[key] = typeof value === 'boolean' ? String(value) : value;
  }
  return { fields };
}

/**
 * The first problem of a failed validation, as a message key and the field it concerns. A check without a key of the
 * errors table carries zod's own English text, which is no key: it is `invalidInput`, in the envelope's `reason` as
 * in its message.
 */
export function firstIssue(error: z.core.$ZodError): { key: string; field: string | undefined } {
  const issue = error.issues[0];
  const key = issue !== undefined && isMessageKey(issue.message) ? issue.message : 'invalidInput';
  return { key, field: issue?.path.length ? issue.path.join('.') : undefined };
}

/** Where the router claims client request ids (platform/request-ids). */
export interface RequestIdStore {
  db: Kysely<Database>;
  now: () => number;
}

/**
 * Serves every call of the composed table at /api/<path>: session check for `auth` calls (999 otherwise),
 * validation with the call's request schema (error envelope with the first issue), the claim of its `request_id`
 * when the schema has one, then the handler, whose result goes out in the ok envelope.
 */
export function registerCalls(
  app: FastifyInstance,
  routes: readonly CallRoute[],
  sessions: Sessions,
  requestIds: RequestIdStore,
): void {
  for (const { path, spec, handle } of routes) {
    const claimsRequestId = takesRequestId(spec.request);
    // A request id is unique per user: a call without a session would have nothing to key it on.
    if (claimsRequestId && !spec.auth) throw new Error(`${path} takes a request_id but no session`);
    app.route({
      method: spec.method,
      url: `/api/${path}`,
      handler: async (request, reply) => {
        const lang = requestLang(request);
        const lookup = await sessions.resolve(tokenFromHeader(request.headers[AUTH_HEADER]));
        if (spec.auth && lookup.state !== 'valid') {
          return sessionExpiredBody(lang, lookup.state === 'none' ? 'notLoggedIn' : 'sessionExpired');
        }
        const form = formFields(spec.method === 'GET' ? request.query : request.body);
        if ('problem' in form) {
          // A NUL in a text is bad input in one field, answered as the field checks answer theirs; a body that is
          // no form at all is a client's bug.
          const status = form.problem.key === 'invalidInput' ? 200 : 400;
          return reply.code(status).send(errorBody(lang, form.problem.key, { field: form.problem.field }));
        }
        const parsed = spec.request.safeParse(form.fields);
        if (!parsed.success) {
          const { key, field } = firstIssue(parsed.error);
          return errorBody(lang, key, { field });
        }
        const session = lookup.state === 'valid' ? lookup.session : null;
        const site = { scheme: request.protocol, host: request.host };
        const ctx: CallContext = { lang, ip: request.ip, session, site, userAgent: request.headers['user-agent'] };
        if (!claimsRequestId || !session) return okBody(await handle(parsed.data, ctx));
        // Here, not in each service, so that no call taking a request id can skip it: the same id with other
        // arguments (or for another call) is refused before the handler could act on it.
        const input = parsed.data as Record<string, unknown>;
        const claim = {
          userId: session.userId,
          requestId: String(input.request_id),
          path,
          digest: requestDigest(path, input),
          at: requestIds.now(),
        };
        const { fresh } = await claimRequestId(requestIds.db, claim);
        try {
          // Inside the claim, so the service confirms it in the transaction of its effect (confirmClaimedRequest).
          return okBody(await withRequestClaim(claim, () => handle(parsed.data, ctx)));
        } catch (err) {
          // A refusal applied nothing: its id stays free for the corrected request. A server error keeps the claim
          // (the effect may have committed before the error).
          if (fresh && err instanceof BusinessError) await releaseRequestId(requestIds.db, claim);
          throw err;
        }
      },
    });
  }
}
