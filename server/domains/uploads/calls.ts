import fs from 'node:fs';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_HEADER } from '../../../protocol/envelope';
import { UPLOAD_FILE_PATH, UPLOAD_IMAGE_PATH } from '../../../protocol/identity';
import type { uploadCalls } from '../../../protocol/uploads';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { errorBody, okBody, sessionExpiredBody } from '../../platform/http/envelope';
import { requestLang } from '../../platform/http/errors';
import type { RateLimiter } from '../../platform/security/rate-limit';
import { type Session, type Sessions, tokenFromHeader } from '../../platform/security/sessions';
import type { UploadStore } from './store';

export interface UploadRouteOptions {
  store: UploadStore;
  sessions: Sessions;
  limiter: RateLimiter;
  /** Uploads one user may make per hour (a verification needs three; retries and mistakes need a few more). */
  perHour?: number;
}

const HOUR = 3_600_000;

const codeOf = (err: unknown): string =>
  typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : '';

/** The session of a request, or the type-999 answer already sent. */
async function sessionOf(sessions: Sessions, request: FastifyRequest, reply: FastifyReply): Promise<Session | null> {
  const lookup = await sessions.resolve(tokenFromHeader(request.headers[AUTH_HEADER]));
  if (lookup.state === 'valid') return lookup.session;
  await reply.send(
    sessionExpiredBody(requestLang(request), lookup.state === 'none' ? 'notLoggedIn' : 'sessionExpired'),
  );
  return null;
}

/**
 * The two upload routes outside the call table (calls are forms; an image is multipart):
 * - POST /api/upload/image: one multipart file field `file`, at most `store.maxBytes`, a JPEG, PNG or WebP by its
 *   bytes; answers the standard envelope with {id, size, mime}.
 * - GET /api/upload/file?id=: the bytes, to the owner (or, for an attached upload, whom its module lets read it: a
 *   chat image's conversation members); anyone else gets the same 404 as for a missing id.
 * Both need the session (Authorization header) like every `auth` call. Registered in their own scope, so the
 * multipart parser exists only here.
 */
export async function registerUploadRoutes(app: FastifyInstance, options: UploadRouteOptions): Promise<void> {
  const { store, sessions, limiter } = options;
  const perHour = options.perHour ?? 60;
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: store.maxBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 100 },
    });

    scope.post(`/api/${UPLOAD_IMAGE_PATH}`, async (request, reply) => {
      const lang = requestLang(request);
      const session = await sessionOf(sessions, request, reply);
      if (!session) return reply;
      if (!request.isMultipart()) return reply.code(415).send(errorBody(lang, 'contentTypeUnsupported'));
      const refusal = await limiter.take([{ bucket: `upload:${session.userId}`, max: perHour, windowMs: HOUR }]);
      if (refusal) {
        const retry_after = Math.ceil(refusal.retryAfterMs / 1000);
        return errorBody(lang, 'rateLimited', { data: { retry_after } });
      }
      let bytes: Buffer;
      try {
        const part = await request.file();
        if (part?.fieldname !== 'file') return errorBody(lang, 'uploadMissing', { field: 'file' });
        bytes = await part.toBuffer();
      } catch (err) {
        const code = codeOf(err);
        if (code === 'FST_REQ_FILE_TOO_LARGE') return errorBody(lang, 'fileTooLarge', { field: 'file' });
        if (code.startsWith('FST_') && code.endsWith('_LIMIT')) return errorBody(lang, 'invalidInput');
        // Anything else failed while reading the client's own bytes: a body cut off inside a part ("Part terminated
        // early", "Unexpected end of multipart data"), a multipart type without a boundary, a stream the client
        // broke off. That is a malformed request, not a server fault.
        request.log.info({ code, reason: err instanceof Error ? err.message : String(err) }, 'malformed upload');
        return reply.code(400).send(errorBody(lang, 'bodyMalformed'));
      }
      return okBody(await store.save(session.userId, bytes));
    });

    scope.get(`/api/${UPLOAD_FILE_PATH}`, async (request, reply) => {
      const lang = requestLang(request);
      const session = await sessionOf(sessions, request, reply);
      if (!session) return reply;
      const query = request.query as Record<string, unknown>;
      const raw = typeof query.id === 'string' ? query.id : '';
      const id = /^[1-9]\d{0,11}$/.test(raw) ? Number(raw) : null;
      const file = id === null ? null : await store.findReadable(session.userId, id);
      const stat = file ? await fs.promises.stat(file.path).catch(() => null) : null;
      // The same answer for another user's id, a removed one and one that never existed: nothing to learn here.
      if (!file || !stat) return reply.code(404).send(errorBody(lang, 'uploadNotFound'));
      return reply
        .type(file.mime)
        .header('content-length', stat.size)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-disposition', 'inline')
        .send(fs.createReadStream(file.path));
    });
  });
}

/** upload/delete: the owner removes an image not (yet) attached to a submission. */
export function uploadHandlers(store: UploadStore): CallHandlers<typeof uploadCalls> {
  return {
    'upload/delete': async (input, ctx) => {
      await store.remove(requireSession(ctx).userId, input.id);
      return {};
    },
  };
}
