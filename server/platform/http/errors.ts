import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
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

/** How long a refused connection may keep sending (what it sends is thrown away) before it is cut. */
const LINGER_MS = 2_000;

/** The `lang` header of a request Node could not parse, read from the bytes it got (German when there is none). */
function langOfRawRequest(raw: unknown) {
  if (!Buffer.isBuffer(raw)) return langFromHeader(undefined);
  const head = raw.subarray(0, 64 * 1024).toString('latin1');
  return langFromHeader(new RegExp(`\\r\\n${LANG_HEADER}:[ \\t]*([^\\r\\n]*)`, 'i').exec(head)?.[1]);
}

/**
 * Errors of Node's HTTP parser, before there is any request: headers or request line over the size limit (431), a
 * request that did not arrive in time (408), and anything else it cannot parse (400). Answered with the envelope
 * written straight to the socket (as Node and Fastify do), then the connection is closed: whatever the client still
 * sends is read and dropped for a moment so it gets the answer, not a reset.
 */
function answerClientError(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify(
    errorBody(langOfRawRequest(error.rawPacket), status === 431 ? 'requestTooLarge' : 'bodyMalformed'),
  );
  // A response of this connection already under way: writing another one into it would corrupt it (Node's rule).
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  socket.on('data', () => undefined);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/**
 * Errors Fastify's router finds before any route or hook runs: a path that is not valid URL encoding (400), a path
 * parameter over the length limit (414), a failing route constraint. Same envelope as every other answer.
 */
function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : error.code === 'FST_ERR_BAD_URL' ? 400 : 500;
  const key = status === 414 ? 'requestTooLarge' : status === 400 ? 'bodyMalformed' : 'serverError';
  if (status === 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ code: error.code, status }, 'malformed request');
  void reply.code(status).send(errorBody(requestLang(request), key));
}

/**
 * Fastify server options that keep the envelope for errors found before a request reaches a route (see
 * registerErrorHandling for everything after): spread them into the Fastify() options.
 */
export const envelopeServerOptions = {
  clientErrorHandler: answerClientError,
  frameworkErrors: answerFrameworkError,
} satisfies Pick<FastifyServerOptions, 'clientErrorHandler' | 'frameworkErrors'>;
