import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, openTestDatabase, startTestApp, type TestApp, type TestDatabase } from './harness';

const INDEX = '<!doctype html><title>TradeWave test build</title><div id="root"></div>';

describe.each(DATABASES)('static client on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
    fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg/>');
    database = await openTestDatabase(kind);
    t = await startTestApp(database.handle, { staticDir: dist });
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, method: 'GET' | 'HEAD' | 'POST' = 'GET') => t.app.inject({ method, url });

  it('serves index.html at / and for client routes (history fallback), never cached', async () => {
    for (const url of ['/', '/pages/assets/index', '/pages/user/login/login?backpage=x', '/choose-location']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(INDEX);
      expect(response.headers['content-type'], url).toMatch(/text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('serves hashed assets with a long cache and other files with revalidation', async () => {
    const asset = await get('/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("app")');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await get('/favicon.svg');
    expect(icon.body).toBe('<svg/>');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('does not fall back for /api, socket.io paths or non-GET requests', async () => {
    const api = await get('/api/nope');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ type: 'error', code: 0, message: 'Nicht gefunden' });
    expect((await get('/api')).statusCode).toBe(404);
    expect((await get('/pages/assets/index', 'POST')).statusCode).toBe(404);
    // A real API call still works next to the static files.
    expect((await get('/api/area_code', 'POST')).json().type).toBe('ok');
  });

  it('does not serve files outside dist', async () => {
    const response = await get('/../package.json');
    expect(response.body).not.toContain('"name"');
  });
});
