import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { routeSizes } from '../size/route-budgets';
import { fig } from './paint-table';
import { buildFloorPage, STACK } from './stack-floor-page';

/**
 * The floor of the first route's budget (issue 27, DESIGN "Fast on a phone": a budget is set from a measured floor,
 * never below it). Builds, with the app's bundler and a production build, a page that does nothing but use each
 * library the first route needs (render through the router, translate a string, map a stream, open a socket, fetch
 * once, read a store), and prints its gzipped JavaScript beside the app's first route from `dist` (run `vite build`
 * first). Each added library is its own line, so the figure a library costs with the rest is read off directly.
 */

const ROOT = path.join(import.meta.dirname, '..', '..');

async function gzippedJs(count: number): Promise<number> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'stack-floor-'));
  try {
    const files = await buildFloorPage(out, '/', count);
    return files.reduce((sum, f) => sum + gzipSync(fs.readFileSync(f), { level: 9 }).length, 0);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

const kb = (bytes: number) => `${fig(bytes / 1024, 1)} KB`;

async function main(): Promise<void> {
  console.log("The first route's libraries alone, gzipped (a page that only uses them), adding one at a time:");
  let before = 0;
  for (let count = 1; count <= STACK.length; count++) {
    const bytes = await gzippedJs(count);
    console.log(`  + ${STACK[count - 1]?.name.padEnd(26)} ${kb(bytes).padStart(9)}  (+${kb(bytes - before)})`);
    before = bytes;
  }
  const dist = path.join(ROOT, 'dist');
  if (fs.existsSync(path.join(dist, '.vite', 'manifest.json'))) {
    const first = routeSizes(dist).find((s) => s.module.includes('features/market/pages/index/index'));
    if (first) {
      console.log(
        `The app's first route (dist): ${kb(first.bytes)} = shell ${kb(first.shell)} + home ${kb(first.page)} + strings ${kb(first.strings)}`,
      );
    }
  }
}

await main();
