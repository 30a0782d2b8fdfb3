import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { ClockAnswer, ClockRequest, MarketMode } from '../../server/clock-hook/hook';
import { checkpoint, watchedPage } from './a11y';

/**
 * End-to-end harness: the real server (built client, SQLite file, outbox delivery) in a child
 * process on a free loopback port, and Debian's Chromium driven by playwright-core at a phone viewport.
 */
export const INVITE_CODE = 'E2EWELCOME';
export const PHONE_VIEWPORT = { width: 375, height: 812 };
/** The two looks every trading screen is checked in: English on the light theme, German on the dark one. */
export const LOOKS = [
  ['en', 'light'],
  ['de', 'dark'],
] as const;

export interface RunningServer {
  url: string;
  dataDir: string;
  /** Stops the server and removes its data, unless `keepData` (to start it again on the same data). */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * Where a server runs and what it serves; each defaults to a fresh one. A test that stops a server and starts it
 * again passes the first one's port and data, so the browser finds "the same" server (tests/e2e/pwa.test.ts).
 */
export interface ServerPlace {
  port?: number;
  dataDir?: string;
  /** The built client to serve (STATIC_DIR); the environment's, or ./dist, when not given. */
  staticDir?: string;
}

/** What the server's clock hook answers (server/clock-hook/hook.ts). */
export type ClockMoved = Extract<ClockAnswer, { clock: 'advanced' }>;

/**
 * A server started with CLOCK_HOOK=1: the test moves its clock and market over the IPC channel instead of waiting.
 * Each call answers after the trading engines ran a round at the new time (`record`: after the price record too).
 */
export interface HookedServer extends RunningServer {
  /** Jumps the server's clock by `ms`, the market ticking through the jump or held still (and staying so). */
  advanceClock(ms: number, options: { market: MarketMode; record?: boolean }): Promise<ClockMoved>;
  /**
   * One step of the held market at its next grid time (the clock moves there: `advancedBy`); or up to `count` steps,
   * stopping at the first whose tick of `until.symbol` is at `until.price`.
   */
  stepMarket(options?: {
    record?: boolean;
    count?: number;
    until?: { symbol: string; price: string };
  }): Promise<ClockMoved>;
  /** The prices of `symbol` that the held market's next `count` steps will publish (nothing moves). */
  marketAhead(symbol: string, count: number): Promise<string[]>;
  /** The server's time now. */
  serverNow(): Promise<number>;
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

/**
 * Resolves once `child` answers at `url`, rejects (with its output) when it exits first. Its being alive is checked
 * after the answer too: a server that already failed to listen must not pass for ready because another one answered.
 */
function serving(child: ChildProcess, url: string): Promise<void> {
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  const answered = (async () => {
    // A limit, not a wait: with files side by side on a busy machine a server's start (tsx compiling it) took over
    // a minute. Just under the e2e hookTimeout (vite.config.ts), so a start that never comes fails with its output.
    const end = Date.now() + 110_000;
    while (Date.now() < end) {
      try {
        const res = await fetch(`${url}/api/get/lang`, { method: 'POST' });
        if (res.ok && child.exitCode === null) return;
      } catch {
        // not listening yet
      }
      await Promise.race([new Promise((r) => setTimeout(r, 200)), exited]);
    }
    throw new Error(`server did not start:\n${output}`);
  })();
  exited.catch(() => undefined);
  return Promise.race([answered, exited]);
}

// The plain signature last: a test file that passes `startServer` along (browserPerTest) gets that one.
export async function startServer(options: { clockHook: true }): Promise<HookedServer>;
export async function startServer(options: ServerPlace): Promise<RunningServer>;
export async function startServer(): Promise<RunningServer>;
export async function startServer(
  options: { clockHook?: boolean } & ServerPlace = {},
): Promise<RunningServer | HookedServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'e2e-data-'));
  const hook = options.clockHook === true;
  const launch = async (port: number) => {
    const child: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', hook ? 'server/clock-hook/main.ts' : 'server/main.ts'],
      {
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          INVITE_CODE,
          LOG_LEVEL: 'warn',
          ...(hook ? { CLOCK_HOOK: '1' } : {}),
          ...(options.staticDir ? { STATIC_DIR: options.staticDir } : {}),
        },
        // The clock hook listens on Node's IPC channel: no HTTP surface for it exists.
        stdio: hook ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
      },
    );
    await serving(child, `http://127.0.0.1:${port}`);
    return { child, port };
  };
  let started: Awaited<ReturnType<typeof launch>> | undefined;
  // Test files run side by side (vite.config.ts): another worker's server may take the free port between the probe
  // and the listen. A server that could not listen is started again on another free port (a chosen one is kept).
  for (let attempt = 1; !started; attempt++) {
    const tried = await launch(options.port ?? (await freePort())).catch((error: Error) => error);
    if (!(tried instanceof Error)) started = tried;
    else if (options.port !== undefined || attempt === 3 || !tried.message.includes('EADDRINUSE')) throw tried;
  }
  const { child, port } = started;
  const url = `http://127.0.0.1:${port}`;
  const running: RunningServer = {
    url,
    dataDir,
    stop: async (stopOptions = {}) => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!stopOptions.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return hook ? { ...running, ...clockHookOf(child) } : running;
}

/** The IPC side of the clock hook: one request at a time, each answer matched by its id. */
function clockHookOf(child: ChildProcess): Omit<HookedServer, keyof RunningServer> {
  let nextId = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const answerOf = (request: ClockRequest): Promise<Exclude<ClockAnswer, { clock: 'error' }>> => {
    const id = ++nextId;
    const answer = queue.then(
      () =>
        new Promise<Exclude<ClockAnswer, { clock: 'error' }>>((resolve, reject) => {
          const onMessage = (message: ClockAnswer) => {
            if (message?.id !== id) return;
            child.off('message', onMessage);
            if (message.clock === 'error') reject(new Error(`clock hook: ${message.message}`));
            else resolve(message);
          };
          child.on('message', onMessage);
          child.send({ ...request, id });
        }),
    );
    queue = answer.catch(() => undefined);
    return answer;
  };
  const ask = async (request: ClockRequest): Promise<ClockMoved> => {
    const answer = await answerOf(request);
    if (answer.clock !== 'advanced') throw new Error(`clock hook: ${request.clock} answered ${answer.clock}`);
    return answer;
  };
  return {
    marketAhead: async (symbol, count) => {
      const answer = await answerOf({ clock: 'ahead', symbol, count });
      if (answer.clock !== 'ahead') throw new Error(`clock hook: ahead answered ${answer.clock}`);
      return answer.prices;
    },
    advanceClock: (ms, { market, record }) => ask({ clock: 'advance', ms, market, ...(record ? { record } : {}) }),
    stepMarket: (options = {}) => ask({ clock: 'step', ...options }),
    serverNow: async () => (await ask({ clock: 'now' })).now,
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

/**
 * Waits until the app has drawn the page itself: a guest's home is first drawn by index.html (hero and market list,
 * scripts/first-paint.ts), whose rows and prices look like the app's but take no taps and never move.
 */
export async function appTookOver(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('[data-first-paint]') === null, undefined, {
    timeout: 30_000,
  });
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
  const config = readConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    INVITE_CODE,
    LOG_LEVEL: 'warn',
    // The build this run serves, as the spawned servers get it from the environment (else `dist`).
    ...(process.env.STATIC_DIR ? { STATIC_DIR: process.env.STATIC_DIR } : {}),
  });
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
