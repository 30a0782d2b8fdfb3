/** localStorage keys the app owns. Everything else under the app's prefix is cache and may be cleared. */
export const STORAGE_KEYS = {
  /** Session (token, user) together with the theme and the store version. */
  app: 'tw.app',
  lang: 'lang',
  langMark: 'langMark',
  /** "Show order flow" (settings): '1' when on. */
  orderFlow: 'tw.orderFlow',
  /** Products whose orders go out without the confirmation sheet (settings), comma-separated; none by default. */
  skipConfirm: 'tw.skipConfirm',
  /** The indicators drawn on the trade/kline chart, comma-separated; none by default. */
  chartIndicators: 'tw.chartIndicators',
} as const;

/** Keys that survive "clear cache": the session and the settings. */
const KEEP = new Set<string>(Object.values(STORAGE_KEYS));

export function readStorage(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key);
    else globalThis.localStorage?.setItem(key, value);
  } catch {
    // Private mode or full storage: the app keeps working from memory.
  }
}

const cacheClearers = new Set<() => void>();

/** Modules holding in-memory caches (area codes, ...) register here so "clear cache" empties them too. */
export function onClearCache(clear: () => void): () => void {
  cacheClearers.add(clear);
  return () => cacheClearers.delete(clear);
}

/** Clears cached data: other localStorage keys, sessionStorage, Cache Storage and in-memory caches. Keeps session and settings. */
export async function clearCache(): Promise<number> {
  let removed = 0;
  try {
    const ls = globalThis.localStorage;
    if (ls) {
      const keys: string[] = [];
      for (let i = 0; i < ls.length; i++) {
        const k = ls.key(i);
        if (k !== null && !KEEP.has(k)) keys.push(k);
      }
      for (const k of keys) ls.removeItem(k);
      removed += keys.length;
    }
    const ss = globalThis.sessionStorage;
    if (ss) {
      removed += ss.length;
      ss.clear();
    }
  } catch {
    // Storage not available.
  }
  try {
    if ('caches' in globalThis) {
      for (const name of await globalThis.caches.keys()) {
        if (await globalThis.caches.delete(name)) removed += 1;
      }
    }
  } catch {
    // Cache Storage not available (insecure context).
  }
  for (const clear of cacheClearers) clear();
  return removed;
}
