import { describe, expect, it } from 'vitest';
import { featureOf, precacheFiles, tableChunk, type ViteManifest } from './precache';
import { loadedAssets } from './service-worker';

/** A small build: the entry with a shared chunk, two pages, the registration with workbox-window, four tables. */
const manifest: ViteManifest = {
  'index.html': {
    file: 'assets/index-AAAA.js',
    src: 'index.html',
    isEntry: true,
    imports: ['_runtime-RRRR.js'],
    dynamicImports: [
      'src/features/market/pages/index/index.tsx',
      'src/features/spot/pages/trade/index.tsx',
      'src/pwa/service-worker.ts',
      'locales/de/app.json',
      'locales/ja/app.json',
    ],
    css: ['assets/index-AAAA.css'],
  },
  '_runtime-RRRR.js': { file: 'assets/runtime-RRRR.js' },
  '_useQuery-QQQQ.js': { file: 'assets/useQuery-QQQQ.js', imports: ['index.html'] },
  'src/features/market/pages/index/index.tsx': {
    file: 'assets/index-HOME.js',
    src: 'src/features/market/pages/index/index.tsx',
    imports: ['index.html', '_useQuery-QQQQ.js'],
    css: ['assets/market-MMMM.css'],
  },
  'src/features/spot/pages/trade/index.tsx': {
    file: 'assets/index-SPOT.js',
    src: 'src/features/spot/pages/trade/index.tsx',
    imports: ['index.html', '_useQuery-QQQQ.js', '_machine-XXXX.js'],
  },
  '_machine-XXXX.js': { file: 'assets/machine-XXXX.js' },
  'src/pwa/service-worker.ts': {
    file: 'assets/service-worker-SSSS.js',
    src: 'src/pwa/service-worker.ts',
    imports: ['index.html'],
    dynamicImports: ['node_modules/workbox-window/build/workbox-window.prod.es5.mjs'],
  },
  'node_modules/workbox-window/build/workbox-window.prod.es5.mjs': { file: 'assets/workbox-window-WWWW.js' },
  'locales/de/app.json': { file: 'assets/app-DE.js', src: 'locales/de/app.json' },
  'locales/en/app.json': { file: 'assets/app-EN.js', src: 'locales/en/app.json' },
  'locales/ja/app.json': { file: 'assets/app-JA.js', src: 'locales/ja/app.json' },
  'locales/de/market.json': { file: 'assets/market-DE.js', src: 'locales/de/market.json' },
};

describe('what the service worker precaches', () => {
  it('takes the entry, the home page and the chosen tables with their static imports and CSS, and nothing else', () => {
    const files = precacheFiles(manifest, {
      chunks: [
        /^index\.html$/,
        /src\/features\/market\/pages\/index\/index\.tsx$/,
        tableChunk('de', 'app'),
        tableChunk('en', 'app'),
        tableChunk('de', 'market'),
      ],
      withDynamicImports: [/^src\/pwa\/service-worker\.ts$/],
    });
    expect([...files].sort()).toEqual(
      [
        'assets/index-AAAA.js',
        'assets/index-AAAA.css',
        'assets/runtime-RRRR.js',
        'assets/index-HOME.js',
        'assets/market-MMMM.css',
        'assets/useQuery-QQQQ.js',
        'assets/service-worker-SSSS.js',
        'assets/workbox-window-WWWW.js',
        'assets/app-DE.js',
        'assets/app-EN.js',
        'assets/market-DE.js',
      ].sort(),
    );
    // Other pages (and what only they import) and other languages are cached on use, not at install.
    expect(files.has('assets/index-SPOT.js')).toBe(false);
    expect(files.has('assets/machine-XXXX.js')).toBe(false);
    expect(files.has('assets/app-JA.js')).toBe(false);
  });

  it("follows dynamic imports only of the chunks named for it (the entry's would be the whole app)", () => {
    const files = precacheFiles(manifest, { chunks: [/^index\.html$/] });
    expect([...files].sort()).toEqual(['assets/index-AAAA.css', 'assets/index-AAAA.js', 'assets/runtime-RRRR.js']);
  });

  it("finds the home page's feature, whose table loads with it", () => {
    expect(featureOf(manifest, /src\/features\/market\/pages\/index\/index\.tsx$/)).toBe('market');
    expect(featureOf(manifest, /no-such-page/)).toBeUndefined();
  });

  it('matches a table chunk exactly', () => {
    expect(tableChunk('de', 'app').test('locales/de/app.json')).toBe(true);
    expect(tableChunk('de', 'app').test('locales/de/apps.json')).toBe(false);
    expect(tableChunk('de', 'app').test('locales/en/app.json')).toBe(false);
  });
});

describe('the files a first visit loaded before the worker took over', () => {
  it("are this origin's /assets/ files, each once and without a query; nothing else", () => {
    const entries = [
      'http://127.0.0.1:8080/assets/app-JA.js',
      'http://127.0.0.1:8080/assets/app-JA.js?again',
      'http://127.0.0.1:8080/assets/index-HOME.js',
      'http://127.0.0.1:8080/api/currency/quotation_new',
      'http://127.0.0.1:8080/socket.io/?EIO=4&transport=websocket',
      'http://127.0.0.1:8080/favicon.svg',
      'https://cdn.example.com/assets/other.js',
    ].map((name) => ({ name }) as PerformanceEntry);
    expect(loadedAssets(entries, 'http://127.0.0.1:8080')).toEqual([
      'http://127.0.0.1:8080/assets/app-JA.js',
      'http://127.0.0.1:8080/assets/index-HOME.js',
    ]);
  });
});
