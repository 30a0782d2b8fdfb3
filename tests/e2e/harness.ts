import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { checkpoint, watchedPage } from './a11y';

/**
 * End-to-end harness: the real server (built client, SQLite file, outbox delivery) in a child
 * process on a free loopback port, and Debian's Chromium driven by playwright-core at a phone viewport.
 */
export const INVITE_CODE = 'E2EWELCOME';
export const PHONE_VIEWPORT = { width: 375, height: 812 };

export interface RunningServer {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });

export async function startServer(): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-data-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, INVITE_CODE, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const poll = async () => {
      try {
        const res = await fetch(`${url}/api/get/lang`, { method: 'POST' });
        if (res.ok) {
          clearTimeout(timer);
          resolve();
          return;
        }
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) {
        clearTimeout(timer);
        reject(new Error(`server exited with ${child.exitCode}:\n${output}`));
        return;
      }
      setTimeout(poll, 200);
    };
    child.stdout?.on('data', (d) => {
      output += d;
    });
    child.stderr?.on('data', (d) => {
      output += d;
    });
    void poll();
  });
  return {
    url,
    dataDir,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Reads the server's database file directly: codes from the outbox, session rows. */
export function withDb<T>(dataDir: string, fn: (db: Database.Database) => T): T {
  const db = new Database(join(dataDir, 'app.db'));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

export function latestCode(dataDir: string, address: string): string {
  const row = withDb(dataDir, (db) =>
    db.prepare('select code from code_outbox where address = ? order by id desc limit 1').get(address),
  ) as { code: string } | undefined;
  if (!row) throw new Error(`no code in the outbox for ${address}`);
  return row.code;
}

export interface Browser {
  context: BrowserContext;
  /**
   * The test's page, watched for accessibility (./a11y.ts): before each action and at the end, a page that changed
   * since its last check (URL, theme, language, dialogs, error messages) is checked with axe-core in both themes; a
   * serious or critical violation fails the test with a readable list.
   */
  page: Page;
  /** Checks the page now if it changed since its last check. */
  checkA11y(why: string): Promise<void>;
  /** Checks the page one last time (unless `skipA11y`, e.g. when the test already failed), then closes the browser. */
  close(options?: { skipA11y?: boolean }): Promise<void>;
}

export async function openBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: PHONE_VIEWPORT,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const watched = watchedPage(context.pages()[0] ?? (await context.newPage()));
  return {
    context,
    page: watched.page,
    checkA11y: watched.check,
    close: async (options = {}) => {
      try {
        if (!options.skipA11y) await watched.check('at the end of the test');
      } finally {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Saves a screenshot when E2E_SHOTS is set (for looking at the app, not for asserting). A state worth a picture is
 * worth an accessibility check: the page is checked here in any case.
 */
export async function shot(page: Page, name: string): Promise<void> {
  await checkpoint(page, `at shot ${name}`);
  const dir = process.env.E2E_SHOTS;
  if (dir) await page.screenshot({ path: join(dir, `${name}.png`) });
}

export interface InProcessServer {
  url: string;
  dataDir: string;
  /** The running app: tests reach its socket.io server (`app.io`) to drop connections. */
  app: import('fastify').FastifyInstance;
  /** The market feed the server publishes: tests stop and restart it. */
  feed: import('../../server/market/feed').MarketFeed;
  stop(): Promise<void>;
}

/**
 * The same server as `startServer`, but in this process, so a test can control its market feed (stop it to see
 * prices go stale) and its sockets (drop them to see the client reconnect). Ticks come four times a second.
 */
export async function startServerInProcess(options: { record?: boolean } = {}): Promise<InProcessServer> {
  const { readConfig } = await import('../../server/config');
  const { startServer: start } = await import('../../server/main');
  const { MarketFeed } = await import('../../server/market/feed');
  const { MarketSimulator } = await import('../../server/market/simulator');
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-data-'));
  const config = readConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, INVITE_CODE, LOG_LEVEL: 'warn' });
  const feed = new MarketFeed(new MarketSimulator({ seed: 'e2e', stepMs: 250, backfillDays: 3, alwaysOpen: true }));
  // The price record is off unless a test needs it (settling options from it, re-checking results).
  const server = await start(config, { market: { feed, record: options.record ?? false } });
  return {
    url: server.url,
    dataDir,
    app: server.app,
    feed,
    stop: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The usual browser test file: `start` a server once for the file (stopped after it) and open a fresh Chromium
 * profile for each test (closed after it); the callbacks hand both to the file's own variables.
 */
export function browserPerTest<S extends { stop(): Promise<void> }>(
  start: () => Promise<S>,
  useServer: (server: S) => void,
  useBrowser: (browser: Browser) => void | Promise<void>,
): void {
  let server: S | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await start();
    useServer(server);
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    browser = await openBrowser();
    await useBrowser(browser);
  });
  afterEach(async (context) => {
    // A test that failed already is not checked again: its page may be anywhere.
    await browser?.close({ skipA11y: context.task.result?.state === 'fail' });
  });
}
