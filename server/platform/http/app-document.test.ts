import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { MARKET_SNAPSHOT_MARK, type MarketSnapshot, marketSnapshot } from '../../../protocol/market-snapshot';
import { registerSpa } from './static';

/**
 * Every page the app answers carries the market's snapshot (issue 27, prices at first paint): `/`, the home path and
 * every client route answer the build's index.html with the snapshot written into its room, compressed as the browser
 * takes it; the build's own file (the service worker's copy) and HEAD keep the room empty. The JSON cannot close its
 * script element, whatever a symbol holds.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function builtClient(html: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'app-doc-'));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'index.html'), html);
  return dir;
}

const PAGE = `<html><body><div id="root"></div>${MARKET_SNAPSHOT_MARK}<script src="/app.js"></script></body></html>`;
const SNAPSHOT: MarketSnapshot = {
  served_at: 1_700_000_000_000,
  quotes: [
    {
      symbol: 'BTC',
      id: 1,
      last: '64250.12',
      open: '63000.00',
      high: '65000.00',
      low: '62000.00',
      change_pct: '1.98',
      volume: '399.54',
      ts: 1_699_999_999_750,
      seq: 42,
    },
  ],
  instruments: [],
};

async function appServing(dir: string, snapshot: () => MarketSnapshot | undefined) {
  const app = Fastify({ logger: false });
  await registerSpa(app, dir, snapshot);
  await app.ready();
  return app;
}

/** The snapshot a served page carries, read back as the app reads it. */
function carried(html: string): MarketSnapshot | null {
  const match = /<script id="tw-market" type="application\/json">(.*?)<\/script>/.exec(html);
  return match?.[1] ? marketSnapshot.parse(JSON.parse(match[1])) : null;
}

describe('the app document', () => {
  it('writes the snapshot into the home page at / and at its own path, compressed as asked', async () => {
    const app = await appServing(builtClient(PAGE), () => SNAPSHOT);
    try {
      const br = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toBe('no-cache');
      expect(carried(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(SNAPSHOT);
      const gz = await app.inject({ url: '/pages/index/index', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(carried(gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(SNAPSHOT);
      const refused = await app.inject({ url: '/', headers: { 'accept-encoding': 'br;q=0, gzip' } });
      expect(refused.headers['content-encoding']).toBe('gzip');
      const plain = await app.inject({ url: '/' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toContain('<script src="/app.js"></script>');
      expect(plain.body).not.toContain(MARKET_SNAPSHOT_MARK);
      expect(carried(plain.body)).toEqual(SNAPSHOT);
    } finally {
      await app.close();
    }
  });

  it("is every client route's page, leaves the build file and HEAD without one, and the room empty when there is none", async () => {
    let current: MarketSnapshot | undefined;
    const app = await appServing(builtClient(PAGE), () => current);
    try {
      expect(carried((await app.inject({ url: '/' })).body)).toBeNull();
      current = SNAPSHOT;
      expect(carried((await app.inject({ url: '/' })).body)).toEqual(SNAPSHOT);
      // Any route may be the first page opened (a trading tab's price header starts from it too).
      expect(carried((await app.inject({ url: '/pages/trade/index' })).body)).toEqual(SNAPSHOT);
      expect(carried((await app.inject({ url: '/pages/lever/index?symbol=BTC' })).body)).toEqual(SNAPSHOT);
      // The file itself is what the service worker precaches: it keeps the room empty.
      expect(carried((await app.inject({ url: '/index.html' })).body)).toBeNull();
      const head = await app.inject({ method: 'HEAD', url: '/pages/trade/index' });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      // Server paths never fall back to the page.
      expect((await app.inject({ url: '/api/nothing-here' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('keeps a hostile text inside its script element', async () => {
    const hostile = { ...SNAPSHOT, quotes: [{ ...SNAPSHOT.quotes[0], symbol: '</script><b>' }] } as MarketSnapshot;
    const app = await appServing(builtClient(PAGE), () => hostile);
    try {
      const body = (await app.inject({ url: '/' })).body;
      expect(body).not.toContain('</script><b>');
      expect(body.match(/<\/script>/g)?.length).toBe(2);
    } finally {
      await app.close();
    }
  });

  it("serves a new deployment's page once index.html changes under the running server", async () => {
    const dir = builtClient(PAGE);
    const app = await appServing(dir, () => SNAPSHOT);
    try {
      expect((await app.inject({ url: '/' })).body).toContain('/app.js');
      fs.writeFileSync(path.join(dir, 'index.html'), PAGE.replace('/app.js', '/app-2.js'));
      const next = (await app.inject({ url: '/' })).body;
      expect(next).toContain('/app-2.js');
      expect(carried(next)).toEqual(SNAPSHOT);
    } finally {
      await app.close();
    }
  });

  it('is served as a static file by a build without room for a snapshot', async () => {
    const app = await appServing(builtClient('<html><body><div id="root"></div></body></html>'), () => SNAPSHOT);
    try {
      const res = await app.inject({ url: '/' });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('tw-market');
    } finally {
      await app.close();
    }
  });
});
