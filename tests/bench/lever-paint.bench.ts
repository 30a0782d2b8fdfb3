import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { readConfig } from '../../server/config';
import { startServer } from '../../server/main';
import { MarketFeed } from '../../server/market/feed';
import { type Browser, INVITE_CODE, openBrowser, PHONE_VIEWPORT } from '../e2e/harness';
import { type ApiAnswer, postApi, registerUser, type TestSession } from '../e2e/users';
import {
  LEVER_COINS,
  LEVER_PROBE_SCRIPT,
  type LeverProbe,
  positionRows,
  readLeverProbe,
  StaggeredLeverCoins,
} from './lever-paint-page';
import { PROBE_SCRIPT, quotesSeen } from './paint-page';
import {
  type Column,
  ensureBuiltClient,
  type FrameFigures,
  fig,
  frameColumns,
  measureFrames,
  sleep,
  tableRow,
} from './paint-table';

/**
 * The lever page under load (issue): /pages/lever/simulator in Debian's Chromium (headless, 375x812) for a user with
 * POSITIONS open positions over the 12 lever coins (live P&L from the positions worker), while the real server (in
 * this process) pushes about 200 mark updates a second across those coins; beside it, in the same run and under the
 * same market, the same page for a user with no positions (the baseline). Printed per page: quote updates per second
 * the page received, frames per second, long tasks over 50 ms (target: none) with the longest, the renderer main
 * thread's busy time per second (CDP Performance metrics: all tasks, script, layout+style) and how often the position
 * rows changed on screen; then positions/baseline ratios and differences.
 *
 * Positions are opened through the HTTP API as the app does (lever/simulator grants the practice funds, then one
 * lever/submit market order each, 1 lot at 10x, mostly isolated, every fourth cross, long and short in turn); they
 * open at their coin's next tick. The worker's own thread is not in the main-thread figures.
 */
const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
/** Each lever coin ticks once per step: 12 coins / 60 ms = 200 mark updates a second. */
const STEP_MS = 60;
const FLUSH_MS = 20;
const READY_MS = 60_000;
const LONG_TASK_MS = 50;

const ROOT = path.join(import.meta.dirname, '..', '..');
const WINDOW = { warmupSeconds: WARMUP_SECONDS, seconds: SECONDS, longTaskMs: LONG_TASK_MS };
const PAGE = '/pages/lever/simulator';

interface Figures extends FrameFigures {
  rowTextsPerSec: number;
  rowFramesPerSec: number;
  commitsPerSec: number;
  rendersPerSec: number;
}

/**
 * BENCH_PROFILE=dir also records the main thread's CPU profile of each page while it is measured (the profiler's own
 * cost is in those runs' figures), writes it there for DevTools and prints the functions with the most self time.
 */
const PROFILE_DIR = process.env.BENCH_PROFILE;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

function printProfile(name: string, profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] }) {
  if (!PROFILE_DIR) return;
  fs.mkdirSync(PROFILE_DIR, { recursive: true });
  const file = path.join(PROFILE_DIR, `${name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let total = 0;
  samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    const key = frame
      ? `${frame.functionName || '(anonymous)'} ${path.basename(frame.url)}:${frame.lineNumber + 1}`
      : '?';
    const ms = (deltas[i] ?? 0) / 1000;
    total += ms;
    self.set(key, (self.get(key) ?? 0) + ms);
  });
  console.log(`${name}: CPU profile in ${file}; most self time of ${fig(total, 0)} ms sampled:`);
  for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    console.log(`  ${fig(ms, 1).padStart(8)} ms  ${key}`);
  }
}

/** Warms up, then measures `page` (loaded and receiving prices) for SECONDS, as paint.bench.ts does. */
async function measure(name: string, page: Page, cdp: CDPSession): Promise<Figures> {
  const { figures, start, end } = await measureFrames(name, page, cdp, WINDOW, () => page.evaluate(readLeverProbe));
  const rows0 = start as LeverProbe;
  const rows1 = end as LeverProbe;
  return {
    ...figures,
    rowTextsPerSec: (rows1.rowTexts - rows0.rowTexts) / figures.seconds,
    rowFramesPerSec: (rows1.rowFrames - rows0.rowFrames) / figures.seconds,
    commitsPerSec: (rows1.commits - rows0.commits) / figures.seconds,
    rendersPerSec: (rows1.renders - rows0.renders) / figures.seconds,
  };
}

/** The lever page for `session`'s user (the stored session the app reads at start), once it shows `rows` rows. */
async function leverPage(browser: Browser, url: string, session: TestSession, rows: number): Promise<Figures> {
  const page = await browser.context.newPage();
  const app = JSON.stringify({ version: '1.0.0', theme: 'dark', ...session });
  await page.addInitScript((stored) => {
    localStorage.setItem('lang', 'en');
    localStorage.setItem('tw.app', stored);
  }, app);
  await page.addInitScript({ content: PROBE_SCRIPT });
  await page.addInitScript({ content: LEVER_PROBE_SCRIPT });
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Performance.enable');
  try {
    await page.goto(`${url}${PAGE}`);
    await page.waitForFunction(quotesSeen, undefined, { timeout: READY_MS });
    await page.waitForFunction(
      () => /\d/.test(document.querySelector('[data-testid="lever-last"]')?.textContent ?? ''),
      undefined,
      { timeout: READY_MS },
    );
    if (rows === 0) await page.locator('.lever-empty').first().waitFor({ timeout: READY_MS });
    else
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="row-pnl"]').length >= n, rows, {
        timeout: READY_MS,
      });
    const shown = await page.evaluate(positionRows);
    // Measured where a trader watches them: the positions list scrolled into view (rows out of sight skip their
    // figures, so a page left at the ticket would not show the rows' cost). The empty page scrolls the same way.
    await page.evaluate(() =>
      document.querySelector('[data-testid="positions"], .lever-empty')?.scrollIntoView({ block: 'start' }),
    );
    const name = `lever, ${shown} positions`;
    if (!PROFILE_DIR) return await measure(name, page, cdp);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
    const figures = await measure(name, page, cdp);
    const { profile } = await cdp.send('Profiler.stop');
    printProfile(name, profile);
    return figures;
  } finally {
    await cdp.detach();
    await page.close();
  }
}

/** GET calls take their fields in the query (lever/simulator). */
async function getApi(url: string, call: string, token: string): Promise<ApiAnswer> {
  const res = await fetch(`${url}/api/${call}`, { headers: { lang: 'en', authorization: token } });
  return (await res.json()) as ApiAnswer;
}

/** Opens POSITIONS market positions for the user; returns once the server holds them all (status 1). */
async function openPositions(url: string, token: string): Promise<void> {
  const server = { url };
  let next = 0;
  const submit = async () => {
    while (next < POSITIONS) {
      const n = next++;
      const reply = await postApi(
        server,
        'lever/submit',
        {
          symbol: LEVER_COINS[n % LEVER_COINS.length] ?? 'BTC',
          side: n % 2 === 0 ? 'long' : 'short',
          type: 'market',
          margin_mode: n % 4 === 3 ? 'cross' : 'isolated',
          lots: '1',
          leverage: '10',
          account: 'simulator',
          request_id: `bench-lever-paint-${n}`,
        },
        token,
      );
      if (reply.type !== 'ok') throw new Error(`lever/submit ${n} refused: ${reply.message}`);
    }
  };
  await Promise.all([submit(), submit(), submit(), submit()]);
  const deadline = Date.now() + READY_MS;
  for (;;) {
    // Open positions (holding), newest first, at most 100 a page: enough to tell that POSITIONS <= 100 are open.
    const trades = await postApi(
      server,
      'lever/my_trade',
      { list: 'positions', account: 'simulator', limit: '100' },
      token,
    );
    const list = (trades.data as { positions?: { status: number }[] } | undefined)?.positions;
    const holding = list?.filter((p) => p.status === 1).length ?? 0;
    if (holding >= Math.min(POSITIONS, 100)) return;
    if (Date.now() > deadline) throw new Error(`only ${holding} of ${POSITIONS} positions opened: ${trades.message}`);
    await sleep(250);
  }
}

const COLUMNS: Column<Figures>[] = [
  { head: 'scenario', width: 28, cell: (f) => f.name },
  { head: 'quotes/s', width: 9, cell: (f) => fig(f.quotesPerSec, 0) },
  ...frameColumns<Figures>(),
  { head: 'row changes/s', width: 14, cell: (f) => fig(f.rowTextsPerSec, 0) },
  { head: 'row frames/s', width: 13, cell: (f) => fig(f.rowFramesPerSec) },
  {
    head: 'React commits/s',
    width: 16,
    cell: (f) => fig(f.commitsPerSec),
    extra: (a, b) => fig(a.commitsPerSec - b.commitsPerSec),
  },
  {
    head: 'renders/s',
    width: 10,
    cell: (f) => fig(f.rendersPerSec),
    extra: (a, b) => fig(a.rendersPerSec - b.rendersPerSec),
  },
];

const row = (cells: string[]) => tableRow(COLUMNS, cells);

ensureBuiltClient(ROOT);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lever-paint-'));
let browser: Browser | undefined;
let server: Awaited<ReturnType<typeof startServer>> | undefined;
try {
  const config = readConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    INVITE_CODE,
    LOG_LEVEL: 'warn',
  });
  const feed = new MarketFeed(new StaggeredLeverCoins(STEP_MS));
  server = await startServer(config, { market: { feed, flushMs: FLUSH_MS, record: false } });
  const running = { url: server.url, dataDir, stop: async () => {} };
  const trader = await registerUser(running, 'bench-lever-trader@example.com');
  const idle = await registerUser(running, 'bench-lever-idle@example.com');
  for (const user of [trader, idle]) {
    const granted = await getApi(server.url, 'lever/simulator', user.token);
    if (granted.type !== 'ok') throw new Error(`lever/simulator refused: ${granted.message}`);
  }
  const opening = performance.now();
  await openPositions(server.url, trader.token);
  const openedIn = (performance.now() - opening) / 1000;

  browser = await openBrowser();
  const agent = await browser.page.evaluate(() => navigator.userAgent);
  const version = /Chrome\/([\d.]+)/.exec(agent)?.[1] ?? agent;
  await browser.page.close();
  console.log(
    `Chromium ${version} headless, ${PHONE_VIEWPORT.width}x${PHONE_VIEWPORT.height}, ${PAGE}; ${LEVER_COINS.length} ` +
      `lever coins each ticking every ${STEP_MS} ms (staggered) = ${fig((LEVER_COINS.length * 1000) / STEP_MS, 0)} ` +
      `mark updates/s offered (stablecoins once a second), socket flush every ${FLUSH_MS} ms; ${POSITIONS} positions ` +
      `opened through the API in ${fig(openedIn)} s; ${WARMUP_SECONDS} s warm-up, ${SECONDS} s measured per page; ` +
      `${os.availableParallelism()} cores, load average ${fig(os.loadavg()[0] ?? 0, 2)}`,
  );

  const empty = await leverPage(browser, server.url, idle, 0);
  const full = await leverPage(browser, server.url, trader, POSITIONS);
  empty.name = `baseline: ${empty.name}`;

  console.log(row(COLUMNS.map((c) => c.head)));
  for (const f of [empty, full]) console.log(row(COLUMNS.map((c) => c.cell(f))));
  console.log(
    row(COLUMNS.map((c, k) => (k === 0 ? 'positions / baseline' : (c.ratio?.(full, empty) ?? '')))).trimEnd(),
  );
  console.log(
    row(COLUMNS.map((c, k) => (k === 0 ? 'positions - baseline' : (c.extra?.(full, empty) ?? '')))).trimEnd(),
  );
  console.log(
    full.longTasks === 0
      ? `long-task target met: no task over ${LONG_TASK_MS} ms with ${POSITIONS} positions in ${fig(full.seconds)} s`
      : `long-task target MISSED: ${full.longTasks} task(s) over ${LONG_TASK_MS} ms with ${POSITIONS} positions, ` +
          `the longest ${fig(full.longestTaskMs, 0)} ms`,
  );
  const worst = [...full.longFrames].sort((a, b) => b.duration - a.duration).slice(0, 3);
  if (worst.length > 0) {
    console.log(`animation frames over ${LONG_TASK_MS} ms with positions: ${full.longFrames.length}; the longest:`);
    for (const f of worst) {
      const scripts = f.scripts.slice(0, 3).join(', ') || 'no script';
      console.log(`  ${fig(f.duration, 0)} ms (style+layout ${fig(f.styleLayout, 0)} ms; ${scripts})`);
    }
  }
  console.log(
    `main thread busy ${fig(full.taskMs / 10)} % of wall time with ${POSITIONS} positions, ${fig(empty.taskMs / 10)} % ` +
      `without; position rows changed in ${fig(full.rowFramesPerSec)} of ${fig(full.fps)} frames/s`,
  );
  // The live book draws figures into the rows' cells: React renders with the lists, not with prices, so a hundred
  // positions add no renders per second to the page's own (its ticker and ticket follow their instrument).
  console.log(
    `React components rendered per second: ${fig(full.rendersPerSec)} with ${POSITIONS} positions, ` +
      `${fig(empty.rendersPerSec)} without (${fig(full.commitsPerSec)} vs ${fig(empty.commitsPerSec)} commits/s)`,
  );
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await browser?.close({ skipA11y: true });
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
