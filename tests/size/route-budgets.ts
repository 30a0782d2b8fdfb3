import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The size check of `npm test` (DESIGN "Fast on a phone"): from the Vite manifest of the production build, the
 * gzipped JavaScript each route loads on a fresh visit, printed for every route and held to its budget.
 *
 * A route loads the entry chunk and its static imports, the route's own lazy page chunk with its static imports,
 * and the active language's tables: the shell's namespaces, plus the namespace of the route's feature. The first
 * route (home, as a guest, in the default language German) has the tightest budget: it is what every new visitor
 * waits for.
 */

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export const KB = 1024;
/** The first route's budget (DESIGN): home as a guest. */
export const FIRST_ROUTE_BUDGET = 120 * KB;
/** Any other single route, with everything it loads on a fresh visit. */
export const ROUTE_BUDGET = 170 * KB;
/** Namespaces the shell loads at start, in the active language. */
export const SHELL_NAMESPACES = ['app', 'errors'];
export const DEFAULT_LANG = 'de';
/** The page module of the first route. */
export const FIRST_ROUTE_PAGE = /src\/features\/market\/pages\/index\/index\.tsx$/;

const PAGE_RE = /^src\/features\/([^/]+)\/pages\/(.+)\.tsx$/;
const LOCALE_RE = /^locales\/([^/]+)\/([^/]+)\.json$/;

export interface RouteSize {
  route: string;
  feature: string;
  bytes: number;
  budget: number;
  files: string[];
}

/** Gzipped size of each file (level 9, like a CDN's static gzip). */
function gzipSizer(dist: string): (file: string) => number {
  const cache = new Map<string, number>();
  return (file) => {
    let size = cache.get(file);
    if (size === undefined) {
      size = gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
      cache.set(file, size);
    }
    return size;
  };
}

/** The chunk keys a chunk pulls in before it runs: itself and its static imports, transitively. */
function staticClosure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  for (const dep of manifest[key]?.imports ?? []) staticClosure(manifest, dep, into);
  return into;
}

export function routeSizes(dist: string): RouteSize[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const sizeOf = gzipSizer(dist);
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry) throw new Error('the manifest has no entry chunk');
  const localeChunk = (lang: string, ns: string) =>
    Object.keys(manifest).find((key) => {
      const m = LOCALE_RE.exec(manifest[key]?.src ?? key);
      return m?.[1] === lang && m[2] === ns;
    });
  const sizes: RouteSize[] = [];
  for (const [key, chunk] of Object.entries(manifest)) {
    const page = PAGE_RE.exec(chunk.src ?? key);
    if (!page || !chunk.isDynamicEntry) continue;
    const feature = page[1] ?? '';
    const keys = new Set<string>();
    staticClosure(manifest, entry, keys);
    staticClosure(manifest, key, keys);
    for (const ns of [...SHELL_NAMESPACES, feature]) {
      const locale = localeChunk(DEFAULT_LANG, ns);
      if (locale) staticClosure(manifest, locale, keys);
    }
    const files = [...keys].map((k) => manifest[k]?.file ?? k).filter((file) => file.endsWith('.js'));
    const bytes = files.reduce((sum, file) => sum + sizeOf(file), 0);
    const first = FIRST_ROUTE_PAGE.test(chunk.src ?? key);
    sizes.push({
      route: first ? `${feature}/${page[2]} (first route)` : `${feature}/${page[2]}`,
      feature,
      bytes,
      budget: first ? FIRST_ROUTE_BUDGET : ROUTE_BUDGET,
      files,
    });
  }
  return sizes.sort((a, b) => b.bytes - a.bytes);
}

function main(): void {
  const dist = path.resolve(process.argv[2] ?? 'dist');
  const sizes = routeSizes(dist);
  if (!sizes.some((s) => s.budget === FIRST_ROUTE_BUDGET)) {
    console.error('size check: the first route (home) was not found in the manifest');
    process.exit(1);
  }
  const oneDecimal = new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const kb = (n: number) => `${oneDecimal.format(n / KB)} KB`;
  const over = sizes.filter((s) => s.bytes > s.budget);
  console.log('JavaScript per route, gzipped, fresh visit in German (budget):');
  for (const s of sizes) {
    console.log(
      `  ${s.bytes > s.budget ? '✗' : '✓'} ${s.route.padEnd(48)} ${kb(s.bytes).padStart(9)}  (${kb(s.budget)})`,
    );
  }
  if (over.length > 0) {
    console.error(`size check: ${over.length} route(s) over budget: ${over.map((s) => s.route).join(', ')}`);
    process.exit(1);
  }
  console.log(`size check: ${sizes.length} routes within budget`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
