import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  AUTH_HEADER,
  type CallData,
  type CallPath,
  type CallSpec,
  type Calls,
  calls,
  type Lang,
} from '../../../protocol';
import { SessionRequiredError } from '../errors';
import { type Session, type Sessions, tokenFromHeader } from '../security/sessions';
import { errorBody, okBody, sessionExpiredBody } from './envelope';
import { requestLang } from './errors';

/** What a handler knows about the request besides its validated fields. */
export interface CallContext {
  lang: Lang;
  ip: string;
  /** The live session when the request carries a valid token; always set for `auth: true` calls. */
  session: Session | null;
}

/** For handlers of `auth: true` calls: the session the router already checked. */
export function requireSession(ctx: CallContext): Session {
  if (!ctx.session) throw new SessionRequiredError('notLoggedIn');
  return ctx.session;
}

export type CallHandler<P extends CallPath> = (
  input: z.output<Calls[P]['request']>,
  ctx: CallContext,
) => Promise<CallData<P>>;

/** One handler per protocol call: a call added to protocol/calls.ts without a handler fails the type check. */
export type CallHandlers = { [P in CallPath]: CallHandler<P> };

/** Why a body is no form: not an object at all, or a JSON number somewhere in it (its path in `field`). */
type FormProblem = { key: 'bodyMalformed'; field?: undefined } | { key: 'jsonNumberRefused'; field: string };

/** The path of the first JSON number in `value` (e.g. `amount`, `items.0.qty`), or null when there is none. */
function firstNumberPath(value: unknown, path: string): string | null {
  if (typeof value === 'number') return path;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, inner] of Object.entries(value)) {
    const found = firstNumberPath(inner, path ? `${path}.${key}` : key);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Form and query values arrive as strings. A JSON body may carry strings and booleans (read as the strings a form
 * would have sent), never numbers: JSON.parse has already turned `1.0000000000000001` into 1 and `1.5e2` into 150,
 * so the exact text the client meant is gone and no rule could check it as it checks the same text in a form.
 * Anything that is not an object (a JSON array, a bare string) is no form.
 */
export function formFields(raw: unknown): { fields: Record<string, unknown> } | { problem: FormProblem } {
  if (raw === undefined || raw === null) return { fields: {} };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { problem: { key: 'bodyMalformed' } };
  const numberAt = firstNumberPath(raw, '');
  if (numberAt !== null) return { problem: { key: 'jsonNumberRefused', field: numberAt } };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    fields[key] = typeof value === 'boolean' ? String(value) : value;
  }
  return { fields };
}

/** The first problem of a failed validation, as a message key and the field it concerns. */
export function firstIssue(error: z.ZodError): { key: string; field: string | undefined } {
  const issue = error.issues[0];
  return { key: issue?.message ?? 'invalidInput', field: issue?.path.length ? issue.path.join('.') : undefined };
}

/**
 * Serves every call of the protocol table at /api/<path>: session check for `auth` calls (999 otherwise),
 * validation with the call's request schema (error envelope with the first issue), then the handler,
 * whose result goes out in the ok envelope.
 */
export function registerCalls(app: FastifyInstance, handlers: CallHandlers, sessions: Sessions): void {
  for (const path of Object.keys(calls) as CallPath[]) {
    const spec: CallSpec = calls[path];
    // Safe: the input handed over below was parsed by this same call's request schema.
    const handle = handlers[path] as unknown as (input: unknown, ctx: CallContext) => Promise<unknown>;
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
          return reply.code(400).send(errorBody(lang, form.problem.key, { field: form.problem.field }));
        }
        const parsed = spec.request.safeParse(form.fields);
        if (!parsed.success) {
          const { key, field } = firstIssue(parsed.error);
          return errorBody(lang, key, { field });
        }
        const session = lookup.state === 'valid' ? lookup.session : null;
        return okBody(await handle(parsed.data, { lang, ip: request.ip, session }));
      },
    });
  }
}
