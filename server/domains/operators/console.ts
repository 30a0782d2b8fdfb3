import fs from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_EXPIRED_TYPE } from '../../../protocol/envelope';
import type { Lang } from '../../../protocol/lang';
import { hasOpsRole, OPS_TOKEN_HEADER, type OpsAccess } from '../../../protocol/ops-console';
import { firstIssue, formFields } from '../../platform/http/calls';
import { errorBody, okBody } from '../../platform/http/envelope';
import { requestLang } from '../../platform/http/errors';
import { translate } from '../../platform/i18n/messages';
import type { OpsCallContext, OpsSection } from './section';
import { type OperatorSession, type OperatorSessions, opsTokenFromHeader } from './sessions';
import type { OpsViewLog } from './views';

export * from './section';

/**
 * The console's HTTP surface: every call of the console's tables at /api/<path>, in a Fastify scope of its own (not
 * the user call table: a user's token opens nothing here). A call is served in this order: the console session from
 * X-Ops-Token (never Authorization; a missing or ended one is the 999 envelope), the role (refused: `opsForbidden`,
 * HTTP 403, before the input is even read), the input validated by the call's schema, then the handler; answers in
 * the envelope of every /api call. Other modules add their sections (support inbox, C2C appeals, help articles).
 */

/** The 999 envelope of the console (its own texts: the user's "log in" would send an operator to the wrong door). */
const opsSessionBody = (lang: Lang, state: 'none' | 'invalid') => ({
  type: SESSION_EXPIRED_TYPE,
  code: 0 as const,
  message: translate(lang, state === 'none' ? 'opsNotLoggedIn' : 'opsSessionExpired'),
});

/** Checks a request's console session and role; the refusal is already sent when it answers null. */
export type OpsGate = (
  request: FastifyRequest,
  reply: FastifyReply,
  access: Exclude<OpsAccess, 'public'>,
) => Promise<OperatorSession | null>;

export function opsGate(sessions: OperatorSessions): OpsGate {
  return async (request, reply, access) => {
    const lang = requestLang(request);
    const lookup = await sessions.resolve(opsTokenFromHeader(request.headers[OPS_TOKEN_HEADER]));
    if (lookup.state !== 'valid') {
      await reply.send(opsSessionBody(lang, lookup.state));
      return null;
    }
    if (access !== 'session' && !hasOpsRole(lookup.session.operator.roles, access)) {
      await reply.code(403).send(errorBody(lang, 'opsForbidden'));
      return null;
    }
    return lookup.session;
  };
}

/** Serves the calls of `sections` on `scope` behind `gate`; the reads that show users' data are audited in `views`. */
export function registerOpsCalls(
  scope: FastifyInstance,
  gate: OpsGate,
  sections: readonly OpsSection[],
  viewLog: OpsViewLog,
): void {
  const seen = new Set<string>();
  for (const section of sections) {
    for (const [path, spec] of Object.entries(section.table)) {
      if (seen.has(path)) throw new Error(`console call ${path} is registered twice`);
      seen.add(path);
      const handle = section.handlers[path];
      if (!handle) throw new Error(`console call ${path} has no handler`);
      const viewed = section.views?.[path];
      scope.route({
        method: spec.method,
        url: `/api/${path}`,
        handler: async (request, reply) => {
          const lang = requestLang(request);
          let session: OperatorSession | null = null;
          if (spec.access !== 'public') {
            session = await gate(request, reply, spec.access);
            if (!session) return reply;
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
          const ctx: OpsCallContext = {
            lang,
            ip: request.ip,
            operator: session?.operator ?? null,
            sessionId: session?.id ?? null,
          };
          const result = await handle(parsed.data, ctx);
          // Only what was answered is recorded: a refused read showed nothing.
          if (viewed && session) await viewLog.record(session, viewed(parsed.data, result));
          return okBody(result);
        },
      });
    }
  }
}

/**
 * Sends a stored image the way the user's own upload route does (never cached, never sniffed, never run);
 * `beforeSend` runs only once the file is there to send (the audit of a shown image: a missing one showed nothing).
 */
export async function sendImage(
  reply: FastifyReply,
  lang: Lang,
  file: { path: string; mime: string } | null,
  beforeSend?: () => Promise<void>,
): Promise<FastifyReply> {
  const stat = file ? await fs.promises.stat(file.path).catch(() => null) : null;
  if (!file || !stat) return reply.code(404).send(errorBody(lang, 'uploadNotFound'));
  await beforeSend?.();
  return reply
    .type(file.mime)
    .header('content-length', stat.size)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('content-disposition', 'inline')
    .send(fs.createReadStream(file.path));
}
