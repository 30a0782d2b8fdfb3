import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { type LongFrame, type ProbeReading, readProbe } from './paint-page';

/**
 * What the Chromium paint benches (paint.bench.ts, lever-paint.bench.ts) share: the measuring window over the page
 * probe (paint-page.ts) and CDP's main-thread metrics, and the table they print beside a baseline.
 */

/** The figures every paint bench prints for a page. */
export interface FrameFigures {
  name: string;
  seconds: number;
  quotesPerSec: number;
  fps: number;
  worstFrameMs: number;
  longTasks: number;
  longestTaskMs: number;
  longFrames: LongFrame[];
  /** Renderer main thread, ms per wall second. */
  taskMs: number;
  scriptMs: number;
  layoutStyleMs: number;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function metrics(cdp: CDPSession): Promise<Map<string, number>> {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  return new Map(list.map((m) => [m.name, m.value]));
}

export interface MeasureWindow {
  warmupSeconds: number;
  seconds: number;
  longTaskMs: number;
}

/**
 * Warms up, then measures `page` (already loaded and receiving prices) for the window's seconds. `probe`, when
 * given, is read at the start and the end too (a bench's own counters), so the caller can turn them into rates.
 */
export async function measureFrames<T>(
  name: string,
  page: Page,
  cdp: CDPSession,
  window: MeasureWindow,
  probe?: () => Promise<T>,
): Promise<{ figures: FrameFigures; before: ProbeReading; after: ProbeReading; start?: T; end?: T }> {
  await sleep(window.warmupSeconds * 1000);
  const before: ProbeReading = await page.evaluate(readProbe, 0);
  const start = probe ? await probe() : undefined;
  const m0 = await metrics(cdp);
  await sleep(window.seconds * 1000);
  const after: ProbeReading = await page.evaluate(readProbe, before.now);
  const end = probe ? await probe() : undefined;
  const m1 = await metrics(cdp);
  // CDP durations are cumulative seconds of main-thread time; Timestamp is the renderer's monotonic clock.
  const delta = (key: string) => (m1.get(key) ?? 0) - (m0.get(key) ?? 0);
  const seconds = (after.now - before.now) / 1000;
  const wall = delta('Timestamp') || seconds;
  const long = after.longTasks.filter((t) => t.duration > window.longTaskMs);
  const figures: FrameFigures = {
    name,
    seconds,
    quotesPerSec: (after.quotes - before.quotes) / seconds,
    fps: (after.frames - before.frames) / seconds,
    worstFrameMs: after.maxFrameGap,
    longTasks: long.length,
    longestTaskMs: long.reduce((max, t) => Math.max(max, t.duration), 0),
    longFrames: after.longFrames,
    taskMs: (delta('TaskDuration') * 1000) / wall,
    scriptMs: (delta('ScriptDuration') * 1000) / wall,
    layoutStyleMs: ((delta('LayoutDuration') + delta('RecalcStyleDuration')) * 1000) / wall,
  };
  return { figures, before, after, ...(start === undefined ? {} : { start }), ...(end === undefined ? {} : { end }) };
}

const formats = new Map<number, Intl.NumberFormat>();
/** Timing figures for the console: a fixed number of fraction digits. */
export function fig(n: number, digits = 1): string {
  let format = formats.get(digits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      useGrouping: false,
    });
    formats.set(digits, format);
  }
  return format.format(n);
}
export const ratio = (a: number, b: number) => (b > 0 ? `${fig(a / b, 2)}x` : a > 0 ? 'n/a' : '-');

/** One column of the printed table. */
export interface Column<F> {
  head: string;
  width: number;
  cell: (f: F) => string;
  ratio?: (a: F, b: F) => string;
  /** Main-thread columns: the page's extra ms per second over the baseline. */
  extra?: (a: F, b: F) => string;
}

/** The columns every paint bench prints, from frames per second to layout and style time. */
export function frameColumns<F extends FrameFigures>(): Column<F>[] {
  const mainThread = (head: string, width: number, of: (f: F) => number): Column<F> => ({
    head,
    width,
    cell: (f) => fig(of(f)),
    ratio: (a, b) => ratio(of(a), of(b)),
    extra: (a, b) => fig(of(a) - of(b)),
  });
  return [
    { head: 'fps', width: 6, cell: (f) => fig(f.fps), ratio: (a, b) => ratio(a.fps, b.fps) },
    {
      head: 'worst frame',
      width: 12,
      cell: (f) => `${fig(f.worstFrameMs, 0)} ms`,
      ratio: (a, b) => ratio(a.worstFrameMs, b.worstFrameMs),
    },
    {
      head: 'long>50ms n/max',
      width: 16,
      cell: (f) => `${f.longTasks} / ${fig(f.longestTaskMs, 0)} ms`,
      ratio: (a, b) => ratio(a.longTasks, b.longTasks),
    },
    mainThread('task ms/s', 10, (f) => f.taskMs),
    mainThread('script ms/s', 12, (f) => f.scriptMs),
    mainThread('layout+style ms/s', 18, (f) => f.layoutStyleMs),
  ];
}

/** A table row: the first cell left-aligned, the others right-aligned to their column's width. */
export function tableRow<F>(columns: readonly Column<F>[], cells: string[]): string {
  return cells
    .map((c, k) => (k === 0 ? c.padEnd(columns[k]?.width ?? 0) : c.padStart(columns[k]?.width ?? 0)))
    .join(' ');
}

/** Newest modification time of the client's sources, to warn when dist/ is older. */
function newestSource(root: string): number {
  let newest = 0;
  const visit = (entry: string) => {
    const stat = fs.statSync(entry);
    if (stat.isDirectory()) for (const child of fs.readdirSync(entry)) visit(path.join(entry, child));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const entry of ['src', 'streams', 'workers', 'protocol', 'locales', 'index.html', 'vite.config.ts']) {
    const full = path.join(root, entry);
    if (fs.existsSync(full)) visit(full);
  }
  return newest;
}

/** Builds the client when dist/ is missing (exits on a failed build); warns when it is older than the sources. */
export function ensureBuiltClient(root: string): void {
  const index = path.join(root, 'dist', 'index.html');
  if (!fs.existsSync(index)) {
    console.log('dist/index.html is missing: building the client first (npx vite build)');
    const build = spawnSync('npx', ['vite', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) {
      console.error('vite build failed');
      process.exit(1);
    }
  } else if (fs.statSync(index).mtimeMs < newestSource(root)) {
    console.log('note: dist/ is older than the client sources; run `npx vite build` to measure the current client');
  }
}
