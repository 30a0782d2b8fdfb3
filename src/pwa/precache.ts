/**
 * What the service worker precaches, chosen from the Vite manifest of the build (vite.config.ts hands this to
 * Workbox's `manifestTransforms`). Build-time code without imports, so the config and a unit test can both use it.
 *
 * Precached (fetched once at install, then served from the cache, online or not):
 * - the shell: index.html, the entry chunk and its static imports, their CSS, the icons;
 * - the home tab (the page the app opens on, also `start_url`) with its static imports;
 * - the registration chunk (src/pwa/service-worker.ts and workbox-window), so a shell started offline still
 *   registers and can offer the next update;
 * - the tables of the shell's namespaces and of the home tab's feature, in German (the default) and English (the
 *   other offered language, SPEC 1).
 *
 * Not precached: the other pages' chunks and the tables of other languages and other features. They are
 * content-hashed, so the worker caches them at runtime on first use (cache-first, `ASSET_CACHE`): a page or language
 * used once keeps working offline, and nobody downloads the whole app (about 1.9 MB, seven languages) to open it.
 * The current language's tables are cached that way when it is not German or English (see `service-worker.ts`,
 * which also keeps the files the first visit loaded before the worker was in control).
 */

/** The runtime cache of content-hashed files under /assets/ (chunks and tables not in the precache). */
export const ASSET_CACHE = 'tw-assets';
/** How many runtime-cached files are kept (least recently used go first): a few versions of a full walk. */
export const ASSET_CACHE_ENTRIES = 300;

/** The part of a Vite manifest entry this module reads (vite's `ManifestChunk`). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  assets?: string[];
}
export type ViteManifest = Record<string, ManifestChunk>;

export interface PrecacheRoots {
  /** Chunks (by manifest key or `src`) whose static closure is precached: the entry, the home page… */
  chunks: readonly RegExp[];
  /** Chunks whose dynamic imports are precached too (the registration module, which imports workbox-window). */
  withDynamicImports?: readonly RegExp[];
}

/** The output files (relative to the build folder) of the chunks matching `roots`, with their static imports and CSS. */
export function precacheFiles(manifest: ViteManifest, roots: PrecacheRoots): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const matches = (patterns: readonly RegExp[] | undefined, key: string, chunk: ManifestChunk) =>
    (patterns ?? []).some((re) => re.test(key) || (chunk.src !== undefined && re.test(chunk.src)));
  const visit = (key: string, followDynamic: boolean): void => {
    const chunk = manifest[key];
    if (!chunk) return;
    if (!seen.has(key)) {
      seen.add(key);
      files.add(chunk.file);
      for (const css of chunk.css ?? []) files.add(css);
      for (const asset of chunk.assets ?? []) files.add(asset);
      for (const dep of chunk.imports ?? []) visit(dep, false);
    }
    if (followDynamic) for (const dep of chunk.dynamicImports ?? []) visit(dep, false);
  };
  for (const [key, chunk] of Object.entries(manifest)) {
    if (matches(roots.chunks, key, chunk)) visit(key, false);
    if (matches(roots.withDynamicImports, key, chunk)) visit(key, true);
  }
  return files;
}

/** The manifest key of a language table chunk (`locales/<lang>/<ns>.json`), as a pattern. */
export const tableChunk = (lang: string, ns: string): RegExp => new RegExp(`^locales/${lang}/${ns}\\.json$`);

/** The feature folder of a page module (`src/features/<feature>/pages/…`), whose table loads with the page. */
export function featureOf(manifest: ViteManifest, page: RegExp): string | undefined {
  for (const [key, chunk] of Object.entries(manifest)) {
    const src = chunk.src ?? key;
    if (page.test(src)) return /^src\/features\/([^/]+)\//.exec(src)?.[1];
  }
  return undefined;
}
