/** SPEC 2, 8, 9: the loading view waits 200 ms; loading and error views time out after 60 s; a chunk gets 120 s. */
export const LOADING_DELAY_MS = 200;
export const LOADING_TIMEOUT_MS = 60_000;
export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
}

/**
 * Resolves with the module, or rejects when the import fails or takes longer than `timeoutMs` (SPEC 9: "raises a
 * chunk-load error"). A failed import keeps its message: the router reloads the document once for the browsers'
 * "failed to fetch dynamically imported module", the sign of a chunk that a newer deployment replaced.
 */
export function loadChunk<T>(importer: () => Promise<T>, timeoutMs = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(`chunk not loaded within ${timeoutMs} ms`)), timeoutMs);
    importer().then(
      (m) => {
        clearTimeout(timer);
        resolve(m);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(err instanceof Error ? err.message : String(err)));
      },
    );
  });
}
