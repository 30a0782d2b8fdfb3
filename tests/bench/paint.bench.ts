import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { readConfig } from '../../server/config';
import { startServer } from '../../server/main';
import { MarketFeed } from '../../server/market/feed';
import { INSTRUMENTS, type Instrument } from '../../server/market/instruments';
import { MarketSimulator, type PriceSource, type TickListener } from '../../server/market/simulator';
import { type Browser, openBrowser, PHONE_VIEWPORT } from '../e2e/harness';
import { EMPTY_PAGE, floorPage, PROBE_SCRIPT, quotesSeen } from './paint-page';
import {
  type Column,
  ensureBuiltClient,
  type FrameFigures,
  fig,
  frameColumns,
  measureFrames,
  ratio,
  tableRow,
} from './paint-table';

/**
 * Tick to paint (issue 3): the home page's live quote list in Debian's Chromium (headless, phone viewport) while the
 * real server (in this process) pushes about 200 quote updates a second across the 14 coins, against a baseline
 * measured in the same run: an empty page on the same origin receiving the same `quotes` messages over a raw
 * socket.io websocket and rendering nothing. Printed per scenario: quote updates per second the page received
 * (counted in the page), frames per second, long tasks over 50 ms (target: none), the renderer main thread's busy
 * time per second (CDP Performance metrics) and how often prices changed on screen; then product/baseline ratios.
 * A third page, the floor, is a static copy of the home page as the product rendered it with a minimal script writing
 * the same cells (paint-page.ts floorPage): the browser's own cost of showing these updates on this page, which is
 * where the product's main-thread time can at best go.
 *
 * The coins tick staggered (see StaggeredCoins) so updates arrive spread over time, as from an exchange, rather than
 * all 14 in one burst per step; the server batches whatever changed every FLUSH_MS.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
/** Each coin ticks once per step: 14 coins / 70 ms = 200 quote updates a second. */
const STEP_MS = 70;
/** Socket batching interval: short, so few of a coin's changes are merged into one. */
const FLUSH_MS = 20;
const BACKFILL_DAYS = 1;
const READY_MS = 60_000;
const LONG_TASK_MS = 50;

const ROOT = path.join(import.meta.dirname, '..', '..');
const WINDOW = { warmupSeconds: WARMUP_SECONDS, seconds: SECONDS, longTaskMs: LONG_TASK_MS };

/**
 * The coins, each its own seeded simulator on a step grid shifted by k × STEP_MS / 14, all driven by one timer every
 * STEP_MS / 14: the 200 ticks a second arrive evenly spread and in the same pattern throughout the run, instead of
 * all 14 coins in one burst per step (one simulator) or wherever 14 timers happen to drift (their own timers).
 */
class StaggeredCoins implements PriceSource {
  readonly instruments: readonly Instrument[] = INSTRUMENTS.filter((i) => i.kind === 'coin');
  private readonly simulators = this.instruments.map(
    (instrument) =>
      new MarketSimulator({
        seed: 'bench-paint',
        stepMs: STEP_MS,
        backfillDays: BACKFILL_DAYS,
        alwaysOpen: true,
        instruments: [instrument],
      }),
  );
  private readonly shiftMs = STEP_MS / this.simulators.length;
  private timer: NodeJS.Timeout | undefined;

  subscribe(listener: TickListener, symbol?: string): () => void {
    const offs = this.simulators.map((s) => s.subscribe(listener, symbol));
    return () => {
      for (const off of offs) off();
    };
  }

  backfill(onTick: TickListener): void {
    for (const s of this.simulators) s.backfill(onTick);
  }

  start(): void {
    this.timer ??= setInterval(() => {
      const now = Date.now();
      this.simulators.forEach((s, k) => {
        s.advanceTo(now - k * this.shiftMs);
      });
    }, this.shiftMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

interface Figures extends FrameFigures {
  messagesPerSec: number;
  priceTextsPerSec: number;
  priceFramesPerSec: number;
}

/** Warms up, then measures `page` (already loaded and receiving prices) for SECONDS. */
async function measure(name: string, page: Page, cdp: CDPSession): Promise<Figures> {
  const { figures, before, after } = await measureFrames(name, page, cdp, WINDOW);
  const seconds = figures.seconds;
  return {
    ...figures,
    messagesPerSec: (after.messages - before.messages) / seconds,
    priceTextsPerSec: (after.priceTexts - before.priceTexts) / seconds,
    priceFramesPerSec: (after.priceFrames - before.priceFrames) / seconds,
  };
}

async function openPage(browser: Browser): Promise<{ page: Page; cdp: CDPSession }> {
  const page = await browser.context.newPage();
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  await page.addInitScript({ content: PROBE_SCRIPT });
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { page, cdp };
}

async function baseline(browser: Browser, url: string): Promise<Figures> {
  const { page, cdp } = await openPage(browser);
  const emptyUrl = `${url}/bench-empty.html`;
  await page.route(emptyUrl, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: EMPTY_PAGE }));
  await page.goto(emptyUrl);
  await page.waitForFunction(quotesSeen, undefined, { timeout: READY_MS });
  const figures = await measure('baseline (empty page)', page, cdp);
  await cdp.detach();
  await page.close();
  return figures;
}

/** The product's figures, and its page as rendered (for the floor). */
async function product(browser: Browser, url: string): Promise<{ figures: Figures; html: string }> {
  const { page, cdp } = await openPage(browser);
  await page.goto(`${url}/`);
  await page.waitForSelector('.quote-row', { timeout: READY_MS });
  await page.waitForFunction(quotesSeen, undefined, { timeout: READY_MS });
  const rows = await page.locator('.quote-row').count();
  const figures = await measure(`product (home, ${rows} rows)`, page, cdp);
  const html = await page.evaluate(() => document.documentElement.outerHTML);
  // The app installed its service worker, which would answer the floor's made-up address with the app's own page
  // (its navigation fallback) before the route below could: the floor then never saw a quote and timed out.
  await page.evaluate(async () => {
    for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
  });
  await cdp.detach();
  await page.close();
  return { figures, html };
}

async function floor(browser: Browser, url: string, html: string): Promise<Figures> {
  const { page, cdp } = await openPage(browser);
  const floorUrl = `${url}/bench-floor.html`;
  await page.route(floorUrl, (route) =>
    route.fulfill({ contentType: 'text/html; charset=utf-8', body: floorPage(html) }),
  );
  // The copy's one script failing shows as quotes that never come: say why instead.
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(floorUrl);
  await page.waitForFunction(quotesSeen, undefined, { timeout: READY_MS }).catch((error: unknown) => {
    throw errors.length > 0 ? new Error(`the floor page's script failed: ${errors.join('; ')}`) : error;
  });
  const figures = await measure('floor (static copy)', page, cdp);
  await cdp.detach();
  await page.close();
  return figures;
}

const COLUMNS: Column<Figures>[] = [
  { head: 'scenario', width: 24, cell: (f) => f.name },
  {
    head: 'quotes/s',
    width: 9,
    cell: (f) => fig(f.quotesPerSec, 0),
    ratio: (a, b) => ratio(a.quotesPerSec, b.quotesPerSec),
  },
  { head: 'msgs/s', width: 7, cell: (f) => fig(f.messagesPerSec, 0) },
  ...frameColumns<Figures>(),
  { head: 'price texts/s', width: 14, cell: (f) => fig(f.priceTextsPerSec, 0) },
  { head: 'price frames/s', width: 15, cell: (f) => fig(f.priceFramesPerSec) },
];

const row = (cells: string[]) => tableRow(COLUMNS, cells);

ensureBuiltClient(ROOT);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-paint-'));
let browser: Browser | undefined;
let server: Awaited<ReturnType<typeof startServer>> | undefined;
try {
  const config = readConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    INVITE_CODE: 'BENCH',
    LOG_LEVEL: 'warn',
  });
  const feed = new MarketFeed(new StaggeredCoins());
  server = await startServer(config, { market: { feed, flushMs: FLUSH_MS, record: false } });
  browser = await openBrowser();
  // The baseline page is fulfilled by Playwright, so Chromium cannot tell it is on loopback: allow its websocket.
  await browser.context.grantPermissions(['local-network-access'], { origin: server.url });
  const agent = await browser.page.evaluate(() => navigator.userAgent);
  const version = /Chrome\/([\d.]+)/.exec(agent)?.[1] ?? agent;
  await browser.page.close();

  console.log(
    `Chromium ${version} headless, ${PHONE_VIEWPORT.width}x${PHONE_VIEWPORT.height}; 14 coins each ticking every ` +
      `${STEP_MS} ms (staggered) = ${fig((14 * 1000) / STEP_MS, 0)} quote updates/s offered, socket flush every ` +
      `${FLUSH_MS} ms; ${WARMUP_SECONDS} s warm-up, ${SECONDS} s measured per scenario; ${os.availableParallelism()} ` +
      `cores, load average ${fig(os.loadavg()[0] ?? 0, 2)} (server, browser and anything else share them)`,
  );
  const empty = await baseline(browser, server.url);
  const { figures: home, html } = await product(browser, server.url);
  const least = await floor(browser, server.url, html);

  console.log(row(COLUMNS.map((c) => c.head)));
  for (const f of [empty, home, least]) console.log(row(COLUMNS.map((c) => c.cell(f))));
  console.log(row(COLUMNS.map((c, k) => (k === 0 ? 'product / baseline' : (c.ratio?.(home, empty) ?? '')))).trimEnd());
  console.log(row(COLUMNS.map((c, k) => (k === 0 ? 'product - baseline' : (c.extra?.(home, empty) ?? '')))).trimEnd());
  console.log(row(COLUMNS.map((c, k) => (k === 0 ? 'floor / baseline' : (c.ratio?.(least, empty) ?? '')))).trimEnd());
  console.log(
    home.longTasks === 0
      ? `long-task target met: no task over ${LONG_TASK_MS} ms on the home page in ${fig(home.seconds)} s`
      : `long-task target MISSED: ${home.longTasks} task(s) over ${LONG_TASK_MS} ms on the home page, the longest ` +
          `${fig(home.longestTaskMs, 0)} ms`,
  );
  if (home.longFrames.length > 0) {
    const worst = [...home.longFrames].sort((a, b) => b.duration - a.duration).slice(0, 3);
    console.log(`animation frames over ${LONG_TASK_MS} ms on the home page: ${home.longFrames.length}; the longest:`);
    for (const f of worst) {
      const scripts = f.scripts.slice(0, 3).join(', ') || 'no script';
      console.log(`  ${fig(f.duration, 0)} ms (style+layout ${fig(f.styleLayout, 0)} ms; ${scripts})`);
    }
  }
  console.log(
    `main thread busy ${fig(home.taskMs / 10)} % of wall time on the home page (${fig(empty.taskMs / 10)} % empty, ` +
      `${fig(least.taskMs / 10)} % floor); prices changed on screen in ${fig(home.priceFramesPerSec)} of ` +
      `${fig(home.fps)} frames/s (floor ${fig(least.priceFramesPerSec)})`,
  );
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await browser?.close();
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
