import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';
import { firstPaint } from './scripts/first-paint.js';
import { LongestFirst } from './scripts/longest-first.js';
import { precompress } from './scripts/precompress.js';
import { FIRST_ROUTE_PAGE, SHELL_NAMESPACES } from './src/lib/first-route.js';
import {
  ASSET_CACHE,
  ASSET_CACHE_ENTRIES,
  featureOf,
  precacheFiles,
  tableChunk,
  type ViteManifest,
} from './src/pwa/precache.js';

/** Where `npm run dev` forwards /api and socket.io: the reference server started beside Vite. */
const serverPort = Number(process.env.PORT ?? 8080);
const serverTarget = `http://127.0.0.1:${serverPort}`;

/** Module ids under protocol/ (the contract shared with the server). */
const protocolDir = fileURLToPath(new URL('./protocol/', import.meta.url));
const protocolModules = new RegExp(`^${protocolDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

/** The build folder, as resolved (`vite build --outDir …` included): the precache is chosen from its manifest. */
let outDir = resolve('dist');
const outDirProbe: Plugin = {
  name: 'tradewave:out-dir',
  configResolved(config) {
    outDir = resolve(config.root, config.build.outDir);
  },
};

/** The colours of the two themes' page background (src/app/theme.css --bg); dark is the default. */
const DARK_BACKGROUND = '#0b0f19';

/**
 * The installable app (issue 15, src/pwa/): the web manifest and a Workbox service worker (generateSW). Registration
 * is the app's own (src/pwa/start.ts, after the first render, not in the support console), and an update waits for
 * the user's "reload" (registerType 'prompt'). What is precached is chosen in src/pwa/precache.ts.
 */
const pwa = VitePWA({
  registerType: 'prompt',
  injectRegister: false,
  includeAssets: ['favicon.svg', 'icons/apple-touch-icon-180.png'],
  manifest: {
    id: '/',
    name: 'TradeWave',
    short_name: 'TradeWave',
    // Says what the app does; no promise of returns (DESIGN "Fair outcomes").
    description: 'Live crypto and US stock prices, spot trading, options, lever and finance products, on your phone.',
    lang: 'en',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: DARK_BACKGROUND,
    theme_color: DARK_BACKGROUND,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    // A tap on a system notification (a price alert that fired) opens the app at the page it names.
    // A repeat visit's market snapshot is asked for with the navigation, not after the cached page's scripts.
    importScripts: ['/notification-click.js', '/snapshot-ahead.js'],
    // The icons and the favicon come from the manifest and includeAssets.
    globPatterns: ['index.html', 'assets/**/*.{js,css}'],
    // Only the shell, the left menu, the home tab and the German and English tables (src/pwa/precache.ts); the rest is
    // cached on use.
    manifestTransforms: [
      (entries) => {
        const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as ViteManifest;
        const home = featureOf(manifest, FIRST_ROUTE_PAGE);
        if (!home) throw new Error('precache: the home page is not in the build manifest');
        const namespaces = [...SHELL_NAMESPACES, home];
        const keep = precacheFiles(manifest, {
          chunks: [
            /^index\.html$/,
            FIRST_ROUTE_PAGE,
            // The left menu loads on first open (src/app/Shell.tsx): offline it must open too.
            /^src\/app\/SideMenu\.tsx$/,
            ...['de', 'en'].flatMap((l) => namespaces.map((ns) => tableChunk(l, ns))),
          ],
          withDynamicImports: [/^src\/pwa\/service-worker\.ts$/],
        });
        return {
          manifest: entries.filter((e) => !e.url.startsWith('assets/') || keep.has(e.url)),
          warnings: [],
        };
      },
    ],
    navigateFallback: 'index.html',
    // Never answered with the shell: the server's calls and socket, and the support console (/ops), which works only
    // with the server and always loads its latest version from it.
    navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/socket\.io(\/|$)/, /^\/ops(\/|$)/],
    // The first install takes the open page at once, so what it loads from then on is cached for offline use. Updates
    // still wait for the user's "reload" (no skipWaiting here).
    clientsClaim: true,
    cleanupOutdatedCaches: true,
    // The only runtime route: content-hashed files under /assets/ (other pages, other languages), cache-first. Nothing
    // else is ever cached: /api (user data and uploaded images, served by upload/file), socket.io and /ops go to the
    // network as if there were no worker.
    runtimeCaching: [
      {
        urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
        handler: 'CacheFirst',
        options: {
          cacheName: ASSET_CACHE,
          expiration: { maxEntries: ASSET_CACHE_ENTRIES, purgeOnQuotaError: true },
          plugins: [
            {
              // The server answers a path without a file with index.html (history fallback): a chunk of an older
              // version that is gone must not be stored as that page.
              cacheWillUpdate: async ({ response }) =>
                response.status === 200 && !(response.headers.get('content-type') ?? '').startsWith('text/html')
                  ? response
                  : null,
            },
          ],
        },
      },
    ],
  },
});

export default defineConfig({
  // firstPaint writes index.html before the PWA's worker lists it; precompress runs last, over every written file.
  plugins: [
    react(),
    outDirProbe,
    firstPaint(fileURLToPath(new URL('.', import.meta.url))),
    pwa,
    precompress(() => outDir),
  ],
  build: {
    outDir: 'dist',
    sourcemap: true,
    // tests/size/route-budgets.ts reads the chunk graph from the manifest (DESIGN "Fast on a phone").
    manifest: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      treeshake: {
        // protocol/ only declares (schemas, constants, pure functions): importing one of its modules has no effect
        // of its own. Said here, a module whose own exports go unused costs nothing, and one that re-exports
        // (account.ts re-exports user.ts, funding.ts and identity.ts the account events) passes on only what is
        // used: the shell takes the user and event schemas without the areas' forms and calls.
        moduleSideEffects: [{ test: protocolModules, sideEffects: false }],
      },
      output: {
        // The shell every route loads names most chunks (each page's and language table's import, and the list of what
        // to preload with each page): with about 400 chunks, one hash character less is 0.4 KB less on every route.
        // Seven characters (42 bits) still tell every version of a file apart for the immutable cache; the bundler's
        // hash placeholders need that many while there are fewer than 4,096 chunks (six failed the build).
        chunkFileNames: 'assets/[name]-[hash:7].js',
        codeSplitting: {
          // Everything the entry imports statically ($initial) loads on every visit: one chunk for all of it
          // compresses better and takes fewer requests than the common chunks it would otherwise share with pages.
          // That set already holds its own static imports, so the group pulls in no dependencies itself (doing so
          // would bring back modules tree-shaking dropped).
          groups: [{ name: 'shell', tags: ['$initial'], includeDependenciesRecursively: false }],
        },
      },
    },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: {
      '/api': serverTarget,
      '/socket.io': { target: serverTarget, ws: true },
    },
  },
  worker: { format: 'es' },
  test: {
    sequence: { sequencer: LongestFirst },
    // Vitest's default in a run is one worker less than the cores: one on the 2-core CI machine, which left a core
    // idle while a test file imported its modules or set up jsdom. Three keep both cores busy (unit: 2:50 → 1:41).
    maxWorkers: 3,
    // A deadline, not a measurement: unit and server tests run beside the type check and lint on two cores, where a
    // file that builds a week of market history or walks every path of a machine takes several times its quiet time
    // (a fresh-clone run failed two at Vitest's 5 s default). Integration and browser tests set their own below.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          setupFiles: ['tests/unit/setup.ts'],
          include: [
            'src/**/*.test.{ts,tsx}',
            'core/**/*.test.ts',
            'protocol/**/*.test.ts',
            'machines/**/*.test.ts',
            'streams/**/*.test.ts',
            'workers/**/*.test.ts',
            'tests/unit/**/*.test.{ts,tsx}',
          ],
        },
      },
      {
        extends: true,
        test: { name: 'server', environment: 'node', include: ['server/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          include: ['tests/integration/**/*.test.ts'],
          // Most of an integration file's time is waiting (engine rounds, a killed server's restart, PostgreSQL):
          // with two workers both cores stood mostly idle (load about 1.4). Four keep them busy; the waits are on
          // events, so the extra load only slows them.
          maxWorkers: 4,
          // A worker count of its own needs a group of its own when several projects run at once (`vitest run`).
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // As for the browser tests below: a server on a busy machine may take longer than expect.poll's 1 s.
          expect: { poll: { timeout: 15_000 } },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          // Files run side by side (issue 24: CI time): each has its own server on a free port, its own data dir,
          // Chromium profile and, where it changes the build (pwa.test.ts), its own copy of it. Three workers keep
          // both cores busy while a test waits on its server or browser; waits are on events, so load only slows.
          maxWorkers: 3,
          sequence: { groupOrder: 2 },
          testTimeout: 90_000,
          hookTimeout: 120_000,
          // expect.poll gives up after 1 s by default: a page on a busy 2-core CI machine (three browsers beside their
          // servers) may take longer to react, and one such poll failed a fresh-clone run (kline-chart.test.ts).
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
