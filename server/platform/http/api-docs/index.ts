import type { FastifyInstance } from 'fastify';
import pkg from '../../../../package.json';
import type { CallTable } from '../../../../protocol/call-spec';
import { messageKeys, translate } from '../../i18n/messages';
import { buildAsyncApi, type SocketSurface } from './asyncapi';
import { buildOpenApi, type DocsInfo } from './openapi';
import { renderReferencePage } from './page';

export { buildAsyncApi, buildOpenApi, renderReferencePage, type SocketSurface };

export const API_DOCS_PATH = '/api/docs';

/** The page draws only what it was given: no script, no outside style, no frames. */
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const docsInfo = (): DocsInfo => ({ version: pkg.version, reasons: messageKeys() });

/**
 * Serves the interface's own documents, made from the protocol's zod schemas once, on first request (the schemas
 * cannot change while the process runs): OpenAPI for the calls, AsyncAPI for the socket and a reference page. Both
 * are made from what the app composed and registered, so they cannot leave out a domain's call or topic.
 */
export function registerApiDocs(app: FastifyInstance, calls: CallTable, socket: () => SocketSurface): void {
  let built: { openapi: string; asyncapi: string; page: string } | undefined;
  const documents = () => {
    if (built) return built;
    const info = docsInfo();
    const openapi = buildOpenApi(info, calls);
    const asyncapi = buildAsyncApi(info, socket());
    const reasons = info.reasons.map((key) => [key, translate('en', key)] as const);
    built = {
      openapi: JSON.stringify(openapi),
      asyncapi: JSON.stringify(asyncapi),
      page: renderReferencePage(openapi, asyncapi, reasons),
    };
    return built;
  };
  app.get(`${API_DOCS_PATH}/openapi.json`, (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(documents().openapi),
  );
  app.get(`${API_DOCS_PATH}/asyncapi.json`, (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(documents().asyncapi),
  );
  app.get(API_DOCS_PATH, (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', PAGE_POLICY)
      .header('x-content-type-options', 'nosniff')
      .send(documents().page),
  );
}
