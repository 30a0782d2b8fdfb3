import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { precompressFile } from '../../scripts/precompress';
import { type Browser, openBrowser, type RunningServer, shot, startServer } from './harness';
import { text } from './locale';

/**
 * Issue 15 "Installable and offline", in Chromium against the real server serving a copy of the build (the last test
 * deploys a new version into that copy): the web manifest and its icons; the service worker controls the page; a
 * reload while the server is down shows the shell with the offline banner; a server started again on the same port
 * and data brings live prices back without a reload; a new deployment is offered with "reload" and taking it loads
 * the new version.
 */
let server: RunningServer;
let browser: Browser;
let page: Page;
/** The copy of the build this file's server serves. */
let staticDir: string;

beforeAll(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'e2e-pwa-static-'));
  cpSync(resolve(process.env.STATIC_DIR ?? 'dist'), staticDir, { recursive: true });
  server = await startServer({ staticDir });
});

afterAll(async () => {
  await server?.stop();
  if (staticDir) rmSync(staticDir, { recursive: true, force: true });
});

beforeEach(async () => {
  browser = await openBrowser();
  page = browser.page;
});

afterEach(async (context) => {
  await browser?.close({ skipA11y: context.task.result?.state === 'fail' });
});

/** Opens the app and waits until its service worker is active and controls the page (after a reload, as on a return). */
async function openControlled(): Promise<void> {
  await page.goto(`${server.url}/`);
  const state = await page.evaluate(async () => {
    const worker = (await navigator.serviceWorker.ready).active;
    if (worker && worker.state !== 'activated') {
      await new Promise<void>((done) =>
        worker.addEventListener('statechange', () => worker.state === 'activated' && done()),
      );
    }
    return worker?.state;
  });
  expect(state).toBe('activated');
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${server.url}/sw.js`);
}

const quoteRows = () => page.locator('.quote-row');
const btcLast = () => page.locator('.quote-row[data-symbol="BTC"] [data-testid="last"]');

/** Waits until BTC's shown price differs from `before`: a live update reached the page. */
async function btcMovesFrom(before: string): Promise<void> {
  await page.waitForFunction(
    (b) => {
      const el = document.querySelector('.quote-row[data-symbol="BTC"] [data-testid="last"]');
      return el !== null && el.textContent !== '' && el.textContent !== b;
    },
    before,
    { timeout: 30_000 },
  );
}

/** A text of the shell's table in any language (./locale.ts has German and English only). */
function tableText(lang: string, key: string): string {
  let node: unknown = JSON.parse(readFileSync(resolve('locales', lang, 'app.json'), 'utf8'));
  for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
  if (typeof node !== 'string') throw new Error(`no text ${lang}:${key}`);
  return node;
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  expect([...bytes.subarray(0, 8)]).toEqual(signature);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

interface WebManifest {
  name?: string;
  short_name?: string;
  description?: string;
  start_url?: string;
  scope?: string;
  display?: string;
  theme_color?: string;
  background_color?: string;
  icons?: { src: string; sizes: string; type: string; purpose?: string }[];
}

describe('installable and offline', () => {
  it('links a valid web manifest whose icons (one maskable) are PNGs of their declared sizes', async () => {
    await page.goto(`${server.url}/`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const res = await fetch(`${server.url}${href}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('manifest+json');
    const manifest = (await res.json()) as WebManifest;
    expect(manifest).toMatchObject({
      name: 'TradeWave',
      short_name: 'TradeWave',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: '#0b0f19',
      background_color: '#0b0f19',
    });
    expect(manifest.description?.length).toBeGreaterThan(20);

    const icons = manifest.icons ?? [];
    const purposes = icons.map((i) => `${i.sizes} ${i.purpose ?? 'any'}`).sort();
    expect(purposes).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of icons) {
      const image = await fetch(new URL(icon.src, `${server.url}${href}`));
      expect({ src: icon.src, status: image.status }).toEqual({ src: icon.src, status: 200 });
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(icon.type).toBe('image/png');
      const { width, height } = pngSize(new Uint8Array(await image.arrayBuffer()));
      expect(`${width}x${height}`).toBe(icon.sizes);
    }
    const touchIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    expect((await fetch(`${server.url}${touchIcon}`)).headers.get('content-type')).toBe('image/png');
  });

  it('colours the browser bar with the theme the user chose, whatever the system scheme', async () => {
    const themeColours = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('meta[name="theme-color"]')].map(
          (m) => `${m.getAttribute('media')} ${m.getAttribute('content')}`,
        ),
      );
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${server.url}/`);
    await page.getByRole('navigation', { name: text('de', 'nav.tabs') }).waitFor();
    // The default (dark) theme, on a light system: both metas say dark.
    expect(await themeColours()).toEqual([
      '(prefers-color-scheme: dark) #0b0f19',
      '(prefers-color-scheme: light) #0b0f19',
    ]);
    await page.evaluate(() => localStorage.setItem('tw.app', JSON.stringify({ theme: 'light' })));
    await page.reload();
    await page.getByRole('navigation', { name: text('de', 'nav.tabs') }).waitFor();
    expect(await themeColours()).toEqual([
      '(prefers-color-scheme: dark) #f4f6fa',
      '(prefers-color-scheme: light) #f4f6fa',
    ]);
  });

  it("answers a cached page's snapshot request with the one the worker asked for with the navigation", async () => {
    await openControlled();
    const answers: { fromWorker: boolean; arrivedAt: string | undefined }[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname !== '/api/market/snapshot') return;
      answers.push({ fromWorker: response.fromServiceWorker(), arrivedAt: response.headers()['x-tw-arrived-at'] });
    });
    const tapped = Date.now();
    await page.goto(`${server.url}/`);
    // The page from the worker's cache carries no snapshot: it puts the answer to its request where the server would.
    const kept = await page.waitForFunction(() =>
      document.getElementById('tw-market')?.getAttribute('data-arrived-at'),
    );
    const arrivedAt = Number(await kept.jsonValue());
    // One request from the page, answered by the worker with the answer it had asked for, and when that arrived.
    expect(answers).toEqual([{ fromWorker: true, arrivedAt: String(arrivedAt) }]);
    expect(arrivedAt).toBeGreaterThanOrEqual(tapped);
    await expect.poll(() => quoteRows().count()).toBeGreaterThan(0);
  });

  it('opens from the service worker while the server is down, says so, and is live again when it is back', async () => {
    await openControlled();
    await expect.poll(() => quoteRows().count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(14);

    // What the worker keeps: the shell in its precache, never a call, the socket or an uploaded image.
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(`${name} ${request.url}`);
      }
      return urls;
    });
    expect(cached.some((u) => /precache.* http:\/\/127\.0\.0\.1:\d+\/index\.html/.test(u))).toBe(true);
    expect(cached.filter((u) => /\/(api|socket\.io|uploads)\b/.test(u))).toEqual([]);

    const { url, dataDir } = server;
    const port = Number(new URL(url).port);
    await server.stop({ keepData: true });
    await page.reload();
    // The shell, not the browser's error page: the tab bar, and the banner saying the server is not reachable.
    await page.getByRole('navigation', { name: text('de', 'nav.tabs') }).waitFor();
    const banner = page.getByTestId('connection-banner');
    await expect.poll(() => banner.textContent(), { timeout: 30_000 }).toBe(text('de', 'pwa.unreachable'));
    expect(await page.title()).toBe('TradeWave');
    await shot(page, 'pwa-offline');

    const navigations: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) navigations.push(f.url());
    });
    server = await startServer({ port, dataDir, staticDir });
    // The app's own reconnect (its backoff reaches 15 s between attempts): the banner goes, prices flow again.
    await expect.poll(() => banner.count(), { timeout: 60_000 }).toBe(0);
    await expect.poll(() => quoteRows().count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(14);
    await btcMovesFrom((await btcLast().textContent()) ?? '');
    expect(navigations).toEqual([]);
    await shot(page, 'pwa-back-online');
    // A server restart and the socket's backoff on a busy machine: more than the default test time.
  }, 240_000);

  it('keeps the tables of a language other than German and English once used, and opens in it offline', async () => {
    await page.addInitScript(() => localStorage.setItem('lang', 'ja'));
    await page.goto(`${server.url}/`);
    const built = JSON.parse(readFileSync(join(staticDir, '.vite', 'manifest.json'), 'utf8')) as Record<
      string,
      { file: string }
    >;
    const japaneseShell = built['locales/ja/app.json']?.file;
    expect(japaneseShell).toBeTruthy();
    // Loaded before the worker took over (a first visit): the app has the worker fetch it again into its cache.
    await expect
      .poll(
        () =>
          page.evaluate(
            async (path) => (await (await caches.open('tw-assets')).match(`${location.origin}/${path}`)) !== undefined,
            japaneseShell,
          ),
        { timeout: 30_000 },
      )
      .toBe(true);

    await browser.context.setOffline(true);
    await page.reload();
    await page.getByRole('navigation', { name: tableText('ja', 'nav.tabs') }).waitFor();
    await expect.poll(() => page.getByTestId('connection-banner').textContent()).toBe(tableText('ja', 'pwa.offline'));
    await shot(page, 'pwa-offline-ja');
    await browser.context.setOffline(false);
  });

  it('offers a newly deployed version with "reload", and reloading brings it', async () => {
    await openControlled();

    // Deploy a new version into the served folder: a changed page, and the worker that precaches it.
    const marker = '<!-- tradewave e2e: second deployment -->';
    const indexFile = join(staticDir, 'index.html');
    writeFileSync(indexFile, readFileSync(indexFile, 'utf8').replace('</body>', `${marker}</body>`));
    const swFile = join(staticDir, 'sw.js');
    const sw = readFileSync(swFile, 'utf8');
    const nextSw = sw.replace(/(\{url:"index\.html",revision:")([^"]+)"/, '$1$2-2"');
    expect(nextSw).not.toBe(sw);
    writeFileSync(swFile, nextSw);
    // As a deployment writes them: with their compressed copies (scripts/precompress.ts), which the server prefers.
    for (const file of [indexFile, swFile]) precompressFile(file);

    // The next start finds it; the old worker still serves this page (without the marker) until the user agrees.
    await page.reload();
    const prompt = page.getByTestId('update-prompt');
    await prompt.waitFor({ timeout: 30_000 });
    expect(await prompt.textContent()).toContain(text('de', 'pwa.updateReady'));
    expect(await page.content()).not.toContain(marker);
    await shot(page, 'pwa-update');

    await page.getByRole('button', { name: text('de', 'pwa.reload') }).click();
    await expect.poll(() => page.content(), { timeout: 30_000 }).toContain(marker);
    await page.getByRole('navigation', { name: text('de', 'nav.tabs') }).waitFor();
    expect(await prompt.count()).toBe(0);
  }, 150_000);
});
