import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

/**
 * The floor page (issue 27): a page that does nothing but use each library the first route needs, built by the app's
 * bundler. stack-floor.bench.ts weighs its JavaScript; lighthouse.bench.ts scores it, the floor of what Lighthouse can
 * give a page that loads this stack at all.
 */

const ROOT = path.join(import.meta.dirname, '..', '..');

/** What the page imports and does, per library the first route loads (the required stack first). */
export const STACK: { name: string; imports: string; use: string }[] = [
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

/**
 * Builds the floor page with the first `count` libraries of STACK (all by default) into `outDir`, served under `base`
 * (its index.html names its scripts under it). Returns the built JavaScript files.
 */
export async function buildFloorPage(outDir: string, base = '/', count = STACK.length): Promise<string[]> {
  // Inside the repository, so the page resolves the app's own node_modules.
  const dir = fs.mkdtempSync(path.join(ROOT, 'tests', 'bench', '.floor-'));
  try {
    fs.writeFileSync(
      path.join(dir, 'index.html'),
      '<!doctype html><html lang="de"><head><meta charset="utf-8"><meta name="viewport" ' +
        'content="width=device-width, initial-scale=1"><title>floor</title></head>' +
        '<body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>',
    );
    fs.writeFileSync(path.join(dir, 'main.tsx'), page(count));
    await build({
      root: dir,
      base,
      configFile: false,
      logLevel: 'silent',
      plugins: [react()],
      build: { outDir, emptyOutDir: true },
    });
    const assets = path.join(outDir, 'assets');
    return fs
      .readdirSync(assets)
      .filter((f) => f.endsWith('.js'))
      .map((f) => path.join(assets, f));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
