import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MARKET_SNAPSHOT_ID, MARKET_SNAPSHOT_MARK, type MarketSnapshot } from '../../../protocol/market-snapshot';

/**
 * The app's page as the server serves it for a client route (issue 27, prices at first paint): the built index.html
 * with the market's current snapshot written into the room the build left for it (MARKET_SNAPSHOT_MARK), so the
 * first paint of home and the first render of a trading tab opened first show prices that were current when the page
 * left the server, instead of waiting for the socket. Every route gets the same bytes (any may be the first page
 * opened; a page that shows no prices never reads it). Only a page fetched from the network carries one: the service
 * worker's precached copy keeps the room empty, and its head script asks `market/snapshot` instead. The document is
 * compressed here (the build's .br and .gz copies hold no snapshot), once per set of quotes: every request until the
 * next tick shares the bytes.
 */
export interface AppDocument {
  reply(request: FastifyRequest, reply: FastifyReply): FastifyReply;
}

type Encoding = 'br' | 'gzip' | 'identity';

/** JSON inside a script element: `<` escaped, so no text in it can close the element. */
const inlineJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/** The encoding to answer in: brotli, else gzip, else none (one refused with q=0 is not offered; others not weighed). */
function encodingOf(accept: string | undefined): Encoding {
  const offered = (accept ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, ...params]) => !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p)))
    .map(([name]) => name);
  if (offered.includes('br')) return 'br';
  if (offered.includes('gzip')) return 'gzip';
  return 'identity';
}

function encode(html: string, encoding: Encoding): Buffer {
  const raw = Buffer.from(html, 'utf8');
  if (encoding === 'br') {
    // Quality 5: a 20 KB page in about a millisecond, within a few per cent of the build's quality 11.
    return brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  }
  return encoding === 'gzip' ? gzipSync(raw) : raw;
}

/** The build's index.html split around the snapshot's room, or undefined when it has none. */
interface Page {
  before: string;
  after: string;
}

function readPage(file: string): Page | undefined {
  const html = fs.readFileSync(file, 'utf8');
  const at = html.indexOf(MARKET_SNAPSHOT_MARK);
  if (at < 0) return undefined;
  return { before: html.slice(0, at), after: html.slice(at + MARKET_SNAPSHOT_MARK.length) };
}

/** The file's identity for "has it changed": a deployment writes a new index.html under the running server. */
const stampOf = (file: string): string => {
  const stat = fs.statSync(file);
  return `${stat.mtimeMs}:${stat.size}`;
};

/**
 * The app document of the build in `dir`, or undefined when its index.html has no room for a snapshot (an older
 * build): then the static files serve it as they do every other path. The file is read again when it changes, as the
 * static files are, so a new deployment's page (naming its new scripts) is what the next visitor gets.
 */
export function appDocument(dir: string, snapshot: () => MarketSnapshot | undefined): AppDocument | undefined {
  const file = path.join(dir, 'index.html');
  let stamp = stampOf(file);
  let page = readPage(file);
  if (!page) return undefined;
  // The bodies of the current quotes, each encoding built once: until a tick changes them, every request shares
  // the bytes (with the `served_at` of when they were built: the snapshot looks older than it is, never younger).
  let cached: { key: string; bodies: Map<Encoding, Buffer> } | undefined;
  return {
    reply(request, reply) {
      const now = stampOf(file);
      if (now !== stamp) {
        stamp = now;
        page = readPage(file);
        cached = undefined;
      }
      const current = page ? snapshot() : undefined;
      const key = current ? current.quotes.map((q) => `${q.symbol}:${q.seq}:${q.ts}`).join(',') : '';
      if (cached?.key !== key) cached = { key, bodies: new Map() };
      const encoding = encodingOf(request.headers['accept-encoding']);
      let body = cached.bodies.get(encoding);
      if (!body) {
        const script = current
          ? `<script id="${MARKET_SNAPSHOT_ID}" type="application/json">${inlineJson(current)}</script>`
          : '';
        // A page rewritten without the room (an older build deployed over this one) is served as it is.
        const html = page ? page.before + script + page.after : fs.readFileSync(file, 'utf8');
        body = encode(html, encoding);
        cached.bodies.set(encoding, body);
      }
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding')
        .send(body);
    },
  };
}
