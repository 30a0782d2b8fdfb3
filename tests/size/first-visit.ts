import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startServer } from '../e2e/harness';
import { KB, routeSizes } from './route-budgets';

/**
 * What Chromium really fetches on a guest's first visit to a route of the built app (default `/`), beside what the
 * size check (route-budgets.ts) counts for it, so the check's model can be compared with the browser. On demand,
 * after `vite build`: `npx tsx tests/size/first-visit.ts [path] [lang]`. Exits 1 when the two differ.
 */
async function main(): Promise<void> {
  const route = process.argv[2] ?? '/';
  const lang = process.argv[3] ?? 'de';
  const server = await startServer();
  const profile = mkdtempSync(join(tmpdir(), 'first-visit-'));
  const fetched = new Map<string, number>();
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      viewport: { width: 375, height: 812 },
      locale: lang,
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
    const page = context.pages()[0] ?? (await context.newPage());
    const bodies: Promise<void>[] = [];
    page.on('response', (res) => {
      const path = new URL(res.url()).pathname;
      if (!path.endsWith('.js')) return;
      bodies.push(
        res.body().then(
          (body) => void fetched.set(path.replace(/^\//, ''), gzipSync(body, { level: 9 }).length),
          () => {},
        ),
      );
    });
    await page.goto(`${server.url}${route}`);
    await page.waitForLoadState('networkidle');
    await Promise.all(bodies);
    await context.close();
  } finally {
    rmSync(profile, { recursive: true, force: true });
    await server.stop();
  }

  const oneDecimal = new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const kb = (n: number) => `${oneDecimal.format(n / KB)} KB`;
  let total = 0;
  for (const [file, size] of [...fetched].sort((a, b) => b[1] - a[1])) {
    total += size;
    console.log(`${kb(size).padStart(9)}  ${file}`);
  }
  console.log(`Chromium fetched ${fetched.size} scripts, ${kb(total)} gzipped, on ${route} (${lang})`);

  if (route !== '/' || lang !== 'de') return;
  const model = routeSizes(resolve('dist')).find((s) => s.route.endsWith('(first route)'));
  if (!model) throw new Error('the size check found no first route');
  const missing = model.files.filter((f) => !fetched.has(f));
  const extra = [...fetched.keys()].filter((f) => !model.files.includes(f));
  console.log(`the size check counts ${model.files.length} scripts, ${kb(model.bytes)}`);
  if (missing.length || extra.length) {
    console.error(
      `model and browser differ: not fetched ${missing.join(', ') || '-'}; not counted ${extra.join(', ') || '-'}`,
    );
    process.exit(1);
  }
}

await main();
