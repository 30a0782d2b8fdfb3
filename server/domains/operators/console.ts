import fs from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { SESSION_EXPIRED_TYPE } from '../../../protocol/envelope';
import type { Lang } from '../../../protocol/lang';
import {
  hasOpsRole,
  OPS_TOKEN_HEADER,
  type OpsAccess,
  type OpsCallSpec,
  type OpsCallTable,
  type OpsRole,
} from '../../../protocol/ops-console';
import { firstIssue, formFields } from '../../platform/http/calls';
import { errorBody, okBody } from '../../platform/http/envelope';
import { requestLang } from '../../platform/http/errors';
import { translate } from '../../platform/i18n/messages';
import type { OperatorPrincipal } from './accounts';
import { type OperatorSession, type OperatorSessions, opsTokenFromHeader } from './sessions';
import type { OpsViewEntry, OpsViewLog } from './views';

/**
 * The console's HTTP surface: every call of the console's tables at /api/<path>, in a Fastify scope of its own (not
 * the user call table: a user's token opens nothing here). A call is served in this order: the console session from
 * X-Ops-Token (never Authorization; a missing or ended one is the 999 envelope), the role (refused: `opsForbidden`,
 * HTTP 403, before the input is even read), the input validated by the call's schema, then the handler; answers in
 * the envelope of every /api call. Other modules add their sections (support inbox, C2C appeals, help articles).
 */

export interface OpsCallContext {
  lang: Lang;
  ip: string;
  /** The signed-in operator; null only in `public` calls (the login). */
  operator: OperatorPrincipal | null;
  sessionId: number | null;
}

/** For calls that need a session: the operator the gate already checked. */
export function requireOperator(ctx: OpsCallContext): { operator: OperatorPrincipal; sessionId: number } {
  if (!ctx.operator || ctx.sessionId === null) throw new Error('an operator call ran without its session');
  return { operator: ctx.operator, sessionId: ctx.sessionId };
}

export type OpsHandler<S extends OpsCallSpec> = (
  input: z.output<S['request']>,
  ctx: OpsCallContext,
) => Promise<z.input<S['response']>>;

/** One handler per call of a table: a call added to the table without a handler fails the type check. */
export type OpsHandlers<T extends OpsCallTable> = { [P in keyof T]: OpsHandler<T[P]> };

/**
 * What a call that shows users' data records when it answers (the operator and time are added): changes are audited
 * by their services in their own transaction; reads say here what they showed.
 */
export type OpsViews<T extends OpsCallTable> = {
  [P in keyof T]?: (input: z.output<T[P]['request']>, result: z.input<T[P]['response']>) => OpsViewEntry;
};

/** A module's console calls: its table (protocol/) and their handlers, and the images it shows operators. */
export interface OpsSection {
  table: OpsCallTable;
  handlers: Readonly<Record<string, (input: unknown, ctx: OpsCallContext) => Promise<unknown>>>;
  images?: readonly OpsImageRoute[];
  views?: Readonly<Record<string, (input: unknown, result: unknown) => OpsViewEntry>>;
}

/**
 * An image route of a section (GET /api/<path>): `image` says which upload the query names and what showing it
 * reveals (the audit view: whose image of what), or null when it names none the role may see (answered like a missing
 * one). Users' photos are their data: a shown image is recorded like the other reads, once per session and image.
 */
export interface OpsImageRoute {
  path: string;
  access: OpsRole;
  image(query: Record<string, unknown>): Promise<OpsImage | null>;
}

/** The upload an image route shows and the audit view of showing it. */
export interface OpsImage {
  uploadId: number;
  view: OpsViewEntry;
}

export const opsSection = <T extends OpsCallTable>(
  table: T,
  handlers: OpsHandlers<T>,
  images: readonly OpsImageRoute[] = [],
  views: OpsViews<T> = {},
): OpsSection => ({
  table,
  handlers: handlers as unknown as OpsSection['handlers'],
  images,
  views: views as unknown as NonNullable<OpsSection['views']>,
});

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
