import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { readConfig } from '../../server/config';
import { startServer } from '../../server/main';
import { MarketFeed } from '../../server/market/feed';
import { MarketSimulator } from '../../server/market/simulator';
import { type Browser, INVITE_CODE, openBrowser, PHONE_VIEWPORT } from '../e2e/harness';
import { registerUser } from '../e2e/users';
import {
  BASELINE_FILE,
  BASELINE_PAGE,
  type ColdReading,
  PROBE_SCRIPT,
  READ_EXPRESSION,
  settledExpression,
} from './cold-start-page';
import { type Column, ensureBuiltClient, fig, ratio, tableRow } from './paint-table';

/**
 * Cold start on a phone (issue 15): the home page in Debian's Chromium (headless, 375x812) with the CPU slowed 4x and
 * a slow 4G network, served by the real server in this process. Per scenario: first contentful paint, largest
 * contentful paint (read once the page has settled), the time until the home market list shows a current price (from
 * the snapshot the server wrote into the page, or live) and until one of its prices first moves (the live feed), all
 * from the navigation's start; for a first visit (a fresh profile: empty HTTP cache, no service worker) and a repeat
 * visit (a new page in the same profile once the service worker controls it: precache and HTTP cache). Beside them the
 * same for a tiny static page on the same origin (the baseline: what a navigation costs at all). Each scenario runs
 * RUNS times, each in its own fresh profile; printed are the median and the 90th percentile, then product/baseline,
 * and whether the first visit's median LCP meets the target of 2.5 s (printed, not asserted: the bench fails only
 * when it could not measure). BENCH_WATERFALL=1 also prints the requests of the median first visit (of home, or of
 * the scenarios whose name starts with its value: `BENCH_WATERFALL=lever`). BENCH_PAGES (`product,baseline,spot,
 * option,lever`, all by default) picks the pages; home is always measured.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TARGET_LCP_MS = 2500;
/** Settled: no new LCP candidate and no request ending for this long (page clock, which the CPU slowdown keeps). */
const QUIET_MS = 1500;
const READY_MS = 120_000;

/**
 * Chrome DevTools' "Slow 4G" preset (front_end/core/sdk/NetworkManager.ts Slow4GConditions, the preset once called
 * "Fast 3G"): 150 ms RTT, ~1.6 Mbps down, ~750 Kbps up, given to Network.emulateNetworkConditions as 150 × 3.75 ms
 * per request and 90 % of the throughput, the adjustments that make request-level throttling approximate those
 * packet-level figures. Lighthouse's mobile default (core/config/constants.js mobileSlow4G, its "devtools" throttling
 * method) uses the same numbers with 1024 for 1000, and the same 4x CPU slowdown.
 */
const SLOW_4G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((750 * 1000) / 8) * 0.9,
};
const CPU_SLOWDOWN = 4;

const ROOT = path.join(import.meta.dirname, '..', '..');

/** Home as a guest, the empty baseline page, and each trading tab opened first by a member. */
type Kind = 'product' | 'baseline' | 'spot' | 'option' | 'lever';
const TABS = {
  spot: '/pages/trade/index?symbol=BTC',
  option: '/pages/option/detail?symbol=BTC',
  lever: '/pages/lever/index?symbol=BTC',
} as const;
type Visit = 'first' | 'repeat';

/**
 * Opens `url` in a new page of `context` on the phone profile and reads it once settled. The throttling is the
 * page's: a service worker's own fetches are not slowed, which matters little here, as on the repeat visit the
 * worker answers from its precache.
 */
async function visit(
  context: BrowserContext,
  url: string,
  needsPrice: boolean,
): Promise<{ page: Page; reading: ColdReading }> {
  const page = await context.newPage();
  await page.addInitScript({ content: PROBE_SCRIPT });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await page.goto(url, { waitUntil: 'commit', timeout: READY_MS });
  await page.waitForFunction(settledExpression(needsPrice, QUIET_MS), undefined, { polling: 250, timeout: READY_MS });
  const reading = (await page.evaluate(READ_EXPRESSION)) as ColdReading;
  await cdp.detach();
  return { page, reading };
}

/**
 * A first and a repeat visit of `pagePath` in a fresh profile; with `session`, as a member (the stored session the
 * app reads at start, there before the first page's scripts).
 */
async function visitTwice(
  origin: string,
  kind: Kind,
  pagePath: string,
  session?: string,
): Promise<Record<Visit, ColdReading>> {
  const browser: Browser = await openBrowser();
  try {
    await browser.page.close();
    if (session) await browser.context.addInitScript((stored) => localStorage.setItem('tw.app', stored), session);
    const url = `${origin}${pagePath}`;
    const app = kind !== 'baseline';
    const first = await visit(browser.context, url, app);
    if (app) {
      // The app registers its worker after the load event; clientsClaim makes it take this page once installed
      // (precache complete), and only then does a repeat visit find everything in it.
      await first.page.waitForFunction('navigator.serviceWorker.controller !== null', undefined, {
        polling: 250,
        timeout: READY_MS,
      });
    }
    await first.page.close();
    const repeat = await visit(browser.context, url, app);
    await repeat.page.close();
    return { first: first.reading, repeat: repeat.reading };
  } finally {
    await browser.close({ skipA11y: true });
  }
}

/** Median and 90th percentile (nearest rank) of the runs. */
interface Spread {
  median: number;
  p90: number;
}

function spread(values: readonly number[]): Spread | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return { median, p90: sorted[Math.ceil(sorted.length * 0.9) - 1] ?? 0 };
}

interface Scenario {
  name: string;
  runs: ColdReading[];
  fcp: Spread | null;
  lcp: Spread | null;
  livePrice: Spread | null;
  priceMoved: Spread | null;
}

function scenario(name: string, runs: ColdReading[]): Scenario {
  const of = (pick: (r: ColdReading) => number | null) => spread(runs.map(pick).filter((v): v is number => v !== null));
  return {
    name,
    runs,
    fcp: of((r) => r.fcp),
    lcp: of((r) => r.lcp),
    livePrice: of((r) => r.livePrice),
    priceMoved: of((r) => r.priceMoved),
  };
}

const ms = (s: Spread | null, key: keyof Spread) => (s ? `${fig(s[key], 0)} ms` : 'n/a');
const medianRatio = (a: Spread | null, b: Spread | null) => (a && b ? ratio(a.median, b.median) : 'n/a');

const COLUMNS: Column<Scenario>[] = [
  { head: 'scenario', width: 22, cell: (s) => s.name },
  { head: 'FCP median', width: 11, cell: (s) => ms(s.fcp, 'median'), ratio: (a, b) => medianRatio(a.fcp, b.fcp) },
  { head: 'FCP p90', width: 9, cell: (s) => ms(s.fcp, 'p90') },
  { head: 'LCP median', width: 11, cell: (s) => ms(s.lcp, 'median'), ratio: (a, b) => medianRatio(a.lcp, b.lcp) },
  { head: 'LCP p90', width: 9, cell: (s) => ms(s.lcp, 'p90') },
  {
    head: 'live prices median',
    width: 19,
    cell: (s) => ms(s.livePrice, 'median'),
    ratio: (a, b) => medianRatio(a.livePrice, b.livePrice),
  },
  { head: 'live p90', width: 9, cell: (s) => ms(s.livePrice, 'p90') },
  {
    head: 'first move median',
    width: 18,
    cell: (s) => ms(s.priceMoved, 'median'),
    ratio: (a, b) => medianRatio(a.priceMoved, b.priceMoved),
  },
];
const row = (cells: string[]) => tableRow(COLUMNS, cells).trimEnd();

const kb = (bytes: number) => `${fig(bytes / 1024)} KB`;

/** The run whose LCP is the scenario's median (the lower middle one for an even count). */
function medianRun(s: Scenario): ColdReading | undefined {
  const sorted = [...s.runs].sort((a, b) => (a.lcp ?? 0) - (b.lcp ?? 0));
  return sorted[(sorted.length - 1) >> 1];
}

/** What the median run's LCP element was and what it waited for. */
function describeLcp(s: Scenario): string {
  const run = medianRun(s);
  if (!run || run.lcp === null) return `${s.name}: no LCP`;
  const before = run.fetched.filter((f) => f.end <= run.lcp!);
  const wire = run.navigationTransfer + before.reduce((sum, f) => sum + f.transfer, 0);
  const decoded = before.reduce((sum, f) => sum + f.decoded, 0);
  const largest = [...before].sort((a, b) => b.decoded - a.decoded)[0];
  return (
    `${s.name}: LCP ${run.lcpElement}; before it ${before.length} requests, ${kb(wire)} over the wire ` +
    `(${kb(decoded)} decoded)` +
    (largest ? `, the largest ${largest.name} ${kb(largest.decoded)} done at ${fig(largest.end, 0)} ms` : '')
  );
}

function waterfall(s: Scenario): void {
  const run = medianRun(s);
  if (!run) return;
  console.log(`requests of the median ${s.name} (start → end ms, wire / decoded):`);
  for (const f of [...run.fetched].sort((a, b) => a.start - b.start)) {
    console.log(
      `  ${fig(f.start, 0).padStart(6)} → ${fig(f.end, 0).padStart(6)}  ${kb(f.transfer).padStart(9)} / ` +
        `${kb(f.decoded).padStart(9)}${f.worker ? ' (worker)' : ''}  ${f.name.slice(0, 80)}`,
    );
  }
  console.log(
    `  FCP ${fig(run.fcp ?? 0, 0)} ms, LCP ${fig(run.lcp ?? 0, 0)} ms, live price ${fig(run.livePrice ?? 0, 0)} ms, ` +
      `first move ${fig(run.priceMoved ?? 0, 0)} ms`,
  );
}

/** The built client to serve: STATIC_DIR when given (as the server reads it), else dist/ (built when missing). */
function builtClient(): string {
  const given = process.env.STATIC_DIR?.trim();
  if (!given) {
    ensureBuiltClient(ROOT);
    return path.join(ROOT, 'dist');
  }
  const dir = path.resolve(given);
  if (!fs.existsSync(path.join(dir, 'index.html'))) throw new Error(`STATIC_DIR ${dir} has no index.html`);
  return dir;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cold-start-'));
// A copy of the build with the baseline page beside index.html: same origin, same static file handling.
const servedDir = path.join(dataDir, 'client');
let server: Awaited<ReturnType<typeof startServer>> | undefined;
try {
  fs.cpSync(builtClient(), servedDir, { recursive: true, filter: (source) => !source.endsWith('.map') });
  fs.writeFileSync(path.join(servedDir, BASELINE_FILE), BASELINE_PAGE);
  const config = readConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: path.join(dataDir, 'data'),
    INVITE_CODE,
    LOG_LEVEL: 'warn',
    STATIC_DIR: servedDir,
    // A throwaway key for the throwaway data: no "data key created, keep a copy" warning in the output.
    DATA_KEY: randomBytes(32).toString('hex'),
  });
  fs.mkdirSync(config.dataDir, { recursive: true });
  // The default simulator's pace (a step a second), always open so stocks tick too; no price record (not measured).
  const feed = new MarketFeed(new MarketSimulator({ seed: 'bench-cold-start', backfillDays: 1, alwaysOpen: true }));
  server = await startServer(config, { market: { feed, record: false } });

  const probe = await openBrowser();
  const agent = await probe.page.evaluate(() => navigator.userAgent);
  await probe.close({ skipA11y: true });
  const version = /Chrome\/([\d.]+)/.exec(agent)?.[1] ?? agent;
  console.log(
    `Chromium ${version} headless, ${PHONE_VIEWPORT.width}x${PHONE_VIEWPORT.height}, CPU ${CPU_SLOWDOWN}x slower, ` +
      `Slow 4G (${SLOW_4G.latency} ms per request, ${fig((SLOW_4G.downloadThroughput * 8) / 1e6, 2)} Mbps down, ` +
      `${fig((SLOW_4G.uploadThroughput * 8) / 1e3, 0)} Kbps up); ${RUNS} runs per scenario, each in a fresh profile; ` +
      `${os.availableParallelism()} cores, load average ${fig(os.loadavg()[0] ?? 0, 2)}`,
  );

  // One member for the tabs (each run's fresh profile gets the same stored session).
  const member = await registerUser({ url: server.url, dataDir: config.dataDir }, 'cold-start@example.com');
  const session = JSON.stringify({ version: '1.0.0', theme: 'dark', ...member });
  const runs = Object.fromEntries(
    (['product', 'baseline', 'spot', 'option', 'lever'] as const).map((kind) => [kind, { first: [], repeat: [] }]),
  ) as unknown as Record<Kind, Record<Visit, ColdReading[]>>;
  const pages: [Kind, string, string | undefined][] = [
    ['product', '/', undefined],
    ['baseline', `/${BASELINE_FILE}`, undefined],
    ...(Object.entries(TABS) as [keyof typeof TABS, string][]).map(([tab, pagePath]): [Kind, string, string] => [
      tab,
      pagePath,
      session,
    ]),
  ];
  const picked = process.env.BENCH_PAGES?.split(',').map((p) => p.trim());
  const measured = pages.filter(([kind]) => kind === 'product' || !picked || picked.includes(kind));
  for (let k = 0; k < RUNS; k++) {
    // The pages alternate, so all of them see the same machine load over the run.
    for (const [kind, pagePath, stored] of measured) {
      const both = await visitTwice(server.url, kind, pagePath, stored);
      runs[kind].first.push(both.first);
      runs[kind].repeat.push(both.repeat);
    }
    process.stdout.write(`run ${k + 1}/${RUNS} done\n`);
  }

  const productFirst = scenario('product first visit', runs.product.first);
  const productRepeat = scenario('product repeat visit', runs.product.repeat);
  const baselineFirst = scenario('baseline first visit', runs.baseline.first);
  const baselineRepeat = scenario('baseline repeat visit', runs.baseline.repeat);

  const tabs = (Object.keys(TABS) as (keyof typeof TABS)[]).flatMap((tab) => [
    scenario(`${tab} tab first visit`, runs[tab].first),
    scenario(`${tab} tab repeat visit`, runs[tab].repeat),
  ]);

  console.log(row(COLUMNS.map((c) => c.head)));
  for (const s of [productFirst, productRepeat, baselineFirst, baselineRepeat, ...tabs]) {
    console.log(row(COLUMNS.map((c) => c.cell(s))));
  }
  const ratios = (name: string, a: Scenario, b: Scenario) =>
    console.log(row(COLUMNS.map((c, k) => (k === 0 ? name : (c.ratio?.(a, b) ?? '')))));
  ratios('first: product/base', productFirst, baselineFirst);
  ratios('repeat: product/base', productRepeat, baselineRepeat);
  // The tabs' goal is the home page's: a current price within 2.5 s on a first visit, 1.5 s on a repeat visit.
  for (const s of [productFirst, productRepeat, ...tabs]) {
    const goal = s.name.endsWith('first visit') ? 2500 : 1500;
    const at = s.livePrice?.median;
    console.log(
      `${s.name}: current price ${at === undefined ? 'never shown' : `${fig(at, 0)} ms`} ` +
        `(goal ${goal} ms: ${at !== undefined && at <= goal ? 'met' : 'MISSED'})`,
    );
  }
  for (const s of [productFirst, productRepeat]) console.log(describeLcp(s));

  const wanted = process.env.BENCH_WATERFALL?.trim();
  if (wanted === '1') waterfall(productFirst);
  else if (wanted) for (const s of tabs.filter((t) => t.name.startsWith(wanted))) waterfall(s);

  const lcp = productFirst.lcp?.median;
  if (lcp === undefined) throw new Error('no LCP measured on the first visit');
  console.log(
    lcp <= TARGET_LCP_MS
      ? `LCP target met: first visit median LCP ${fig(lcp, 0)} ms ≤ ${TARGET_LCP_MS} ms`
      : `LCP target MISSED: first visit median LCP ${fig(lcp, 0)} ms > ${TARGET_LCP_MS} ms ` +
          `(${fig(lcp - TARGET_LCP_MS, 0)} ms over)`,
  );
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
