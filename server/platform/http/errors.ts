import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LANG_HEADER } from '../../../protocol';
import { BusinessError, SessionRequiredError } from '../errors';
import { langFromHeader, type MessageKey } from '../i18n/messages';
import { errorBody, sessionExpiredBody } from './envelope';

/** Fastify's own request errors that deserve their own message (everything else 4xx is `invalidInput`). */
const CLIENT_ERROR_KEYS: Record<string, MessageKey> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'contentTypeUnsupported',
  FST_ERR_CTP_BODY_TOO_LARGE: 'requestTooLarge',
  FST_ERR_CTP_INVALID_JSON_BODY: 'bodyMalformed',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'bodyMalformed',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bodyMalformed',
};

const statusOf = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && 'statusCode' in error && typeof error.statusCode === 'number'
    ? error.statusCode
    : undefined;

const codeOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : '';

export const requestLang = (request: FastifyRequest) => langFromHeader(request.headers[LANG_HEADER]);

export function replyNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send(errorBody(requestLang(request), 'notFound'));
}

/**
 * Turns every failure into an envelope in the caller's language. Business failures and 999 are HTTP 200
 * (the client reads the envelope); malformed requests keep their 4xx; anything unexpected is logged with
 * its stack and answered 500 with a generic message, never the stack.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request, reply) => {
    const lang = requestLang(request);
    if (error instanceof BusinessError) {
      return reply.code(200).send(errorBody(lang, error.key, { field: error.field, data: error.data }));
    }
    if (error instanceof SessionRequiredError) return reply.code(200).send(sessionExpiredBody(lang, error.key));
    const status = statusOf(error);
    if (status !== undefined && status >= 400 && status < 500) {
      const code = codeOf(error);
      request.log.info({ code, status }, 'malformed request');
      return reply.code(status).send(errorBody(lang, CLIENT_ERROR_KEYS[code] ?? 'invalidInput'));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody(lang, 'serverError'));
  });
}
