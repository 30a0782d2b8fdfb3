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

/**
 * Form and query values arrive as strings; JSON bodies may carry numbers or booleans, which are read as the
 * strings a form would have sent. Anything that is not an object (a JSON array, a bare string) is no form.
 */
function formFields(raw: unknown): Record<string, unknown> | null {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) return null;
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    fields[key] = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
  }
  return fields;
}

/** The first problem of a failed validation, as a message key and the field it concerns. */
function firstIssue(error: z.ZodError): { key: string; field: string | undefined } {
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
        const fields = formFields(spec.method === 'GET' ? request.query : request.body);
        if (!fields) return reply.code(400).send(errorBody(lang, 'bodyMalformed'));
        const parsed = spec.request.safeParse(fields);
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
