import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { MarketSnapshot } from '../../../protocol/market-snapshot';
import { HOME_PATH } from '../../../protocol/pages';
import { appDocument } from './app-document';
import { replyNotFound } from './errors';

/** Vite puts content-hashed files under /assets/, so they never change and may be cached for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html names the current hashed files, so browsers must revalidate it on every load. */
const REVALIDATE = 'no-cache';

const isServerPath = (url: string) => /^\/(api|socket\.io)(\/|\?|$)/.test(url);

/** A built client exists in `dir` (Vite's outDir). */
export const hasBuiltClient = (dir: string) => fs.existsSync(path.join(dir, 'index.html'));

/**
 * Serves the built single-page app from `dir` with a history fallback: a GET for a path with no file
 * (a client route such as /pages/assets/index) gets index.html. /api and /socket.io paths never fall back. `/`, the
 * home page's own path and every client route carry the market's snapshot when one is given (app-document.ts).
 */
export async function registerSpa(
  app: FastifyInstance,
  dir: string,
  marketSnapshot?: () => MarketSnapshot | undefined,
): Promise<void> {
  const root = path.resolve(dir);
  const appPage = marketSnapshot ? appDocument(root, marketSnapshot) : undefined;
  if (appPage) {
    // Registered before the static files' wildcard, which would otherwise answer `/` with the plain index.html.
    for (const url of ['/', HOME_PATH]) app.get(url, (request, reply) => appPage.reply(request, reply));
  }
  await app.register(fastifyStatic, {
    root,
    // The build writes .br and .gz copies (scripts/precompress.ts): sent to a browser that takes them, with Vary.
    preCompressed: true,
    cacheControl: false,
    // `/` is the app document's (above) when there is one.
    index: appPage ? false : undefined,
    setHeaders(res, filePath) {
      const rel = path.relative(root, filePath).split(path.sep).join('/');
      res.setHeader('cache-control', rel.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
      // One URL, several encodings (the plugin does not say so itself): a shared cache must key on the request's.
      res.setHeader('vary', 'accept-encoding');
    },
  });
  app.setNotFoundHandler((request, reply) => {
    if ((request.method === 'GET' || request.method === 'HEAD') && !isServerPath(request.url)) {
      // HEAD stays with the static file, which answers it without a body (the document's reply would send one).
      if (appPage && request.method === 'GET') return appPage.reply(request, reply);
      return reply.header('cache-control', REVALIDATE).sendFile('index.html');
    }
    return replyNotFound(request, reply);
  });
}
