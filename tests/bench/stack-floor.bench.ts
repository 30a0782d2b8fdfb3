import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { routeSizes } from '../size/route-budgets';
import { fig } from './paint-table';

/**
 * The floor of the first route's budget (issue 27, DESIGN "Fast on a phone": a budget is set from a measured floor,
 * never below it). Builds, with the app's bundler and a production build, a page that does nothing but use each
 * library the first route needs (render through the router, translate a string, map a stream, open a socket, fetch
 * once, read a store), and prints its gzipped JavaScript beside the app's first route from `dist` (run `vite build`
 * first). Each added library is its own line, so the figure a library costs with the rest is read off directly.
 */

const ROOT = path.join(import.meta.dirname, '..', '..');

/** What the page imports and does, per library the first route loads (the required stack first). */
const STACK: { name: string; imports: string; use: string }[] = [
  {
    name: 'react + react-dom',
    imports: "import { useState } from 'react';\nimport { createRoot } from 'react-dom/client';",
    use: '',
  },
  {
    name: '@tanstack/react-router',
    imports:
      "import { createRootRoute, createRoute, createRouter, Link, Outlet, RouterProvider } from '@tanstack/react-router';",
    use: '',
  },
  {
    name: 'i18next + react-i18next',
    imports: "import i18next from 'i18next';\nimport { initReactI18next, useTranslation } from 'react-i18next';",
    use: "void i18next.use(initReactI18next).init({ lng: 'de', resources: { de: { t: { hi: 'Hallo' } } } });",
  },
  {
    name: 'rxjs',
    imports: "import { BehaviorSubject, distinctUntilChanged, filter, map, merge, Observable, share } from 'rxjs';",
    use: 'const price$ = merge(new BehaviorSubject(1), new Observable<number>((o) => o.next(2))).pipe(map((n) => n * 2), filter((n) => n > 0), distinctUntilChanged(), share());',
  },
  {
    name: 'socket.io-client',
    imports: "import { io } from 'socket.io-client';",
    use: 'const socket = io({ autoConnect: false });',
  },
  { name: 'ky', imports: "import ky from 'ky';", use: "void ky.get('/api/ping').json().catch(() => {});" },
  { name: 'valtio', imports: "import { proxy, useSnapshot } from 'valtio';", use: 'const store = proxy({ n: 0 });' },
  {
    name: 'zod/mini',
    imports: "import { z } from 'zod/mini';",
    use: 'const quote = z.object({ symbol: z.string(), last: z.string().check(z.regex(/^\\d+(\\.\\d+)?$/)), ts: z.number().check(z.int()) });',
  },
  {
    name: '@tanstack/react-query',
    imports: "import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';",
    use: 'const queryClient = new QueryClient();',
  },
];

/** The page's own code: each library in use, so the bundler keeps what a real page keeps. */
function page(count: number): string {
  const names = new Set(STACK.slice(0, count).map((s) => s.name));
  const has = (name: string) => names.has(name);
  const lines = [
    ...STACK.slice(0, count).map((s) => s.imports),
    ...STACK.slice(0, count).map((s) => s.use),
    'function Home() {',
    '  const [n, setN] = useState(0);',
    has('i18next + react-i18next') ? '  const { t } = useTranslation();' : '  const t = (k: string) => k;',
    has('valtio') ? '  const snap = useSnapshot(store);' : '  const snap = { n: 0 };',
    has('@tanstack/react-query')
      ? "  const q = useQuery({ queryKey: ['q'], queryFn: () => Promise.resolve(1) });"
      : '  const q = { data: 0 };',
    has('rxjs') ? '  if (n === 0) price$.subscribe((p) => setN(p));' : '',
    has('socket.io-client') ? "  socket.on('quote', (m: unknown) => setN(Number(Boolean(m))));" : '',
    has('zod/mini')
      ? "  const ok = quote.safeParse({ symbol: 'BTC', last: '1', ts: 1 }).success;"
      : '  const ok = true;',
    '  return <button type="button" onClick={() => setN(n + 1)}>{t(\'hi\')} {n} {snap.n} {String(q.data)} {String(ok)}</button>;',
    '}',
    has('@tanstack/react-router')
      ? [
          'const rootRoute = createRootRoute({ component: () => <><Link to="/">/</Link><Outlet /></> });',
          "const router = createRouter({ routeTree: rootRoute.addChildren([createRoute({ getParentRoute: () => rootRoute, path: '/', component: Home })]) });",
          'const app = <RouterProvider router={router} />;',
        ].join('\n')
      : 'const app = <Home />;',
    has('@tanstack/react-query')
      ? "createRoot(document.getElementById('root')!).render(<QueryClientProvider client={queryClient}>{app}</QueryClientProvider>);"
      : "createRoot(document.getElementById('root')!).render(app);",
  ];
  return lines.filter(Boolean).join('\n');
}

async function gzippedJs(count: number): Promise<number> {
  // Inside the repository, so the page resolves the app's own node_modules.
  const dir = fs.mkdtempSync(path.join(ROOT, 'tests', 'bench', '.floor-'));
  try {
    fs.writeFileSync(
      path.join(dir, 'index.html'),
      '<div id="root"></div><script type="module" src="/main.tsx"></script>',
    );
    fs.writeFileSync(path.join(dir, 'main.tsx'), page(count));
    await build({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      plugins: [react()],
      build: { outDir: path.join(dir, 'dist'), emptyOutDir: true },
    });
    const assets = path.join(dir, 'dist', 'assets');
    return fs
      .readdirSync(assets)
      .filter((f) => f.endsWith('.js'))
      .reduce((sum, f) => sum + gzipSync(fs.readFileSync(path.join(assets, f)), { level: 9 }).length, 0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
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
