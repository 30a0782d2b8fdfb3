import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * Compressed copies of the build's text files (issue 15, cold start): `x.js` gets `x.js.br` and `x.js.gz` beside it,
 * which the server sends to a browser that accepts them (@fastify/static preCompressed, server/platform/http/static.ts).
 * On a slow phone network the shell is most of the first visit's wait: brotli sends it in about a third of its size.
 * Compressed once at build time, at the highest levels, instead of on every request.
 */

/** What is worth compressing: text. Images and fonts are compressed formats already. */
const TEXT = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/;
/** Below this a compressed copy saves less than a packet. */
const MIN_BYTES = 1_024;

/** Every file under `dir`, recursively (paths relative to nothing: absolute). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/** Writes the .br and .gz copies of every text file under `dir` that shrinks; returns how many files got them. */
export function precompressDir(dir: string): number {
  return filesUnder(dir).filter((file) => precompressFile(file)).length;
}

/**
 * Writes a text file's .br and .gz copies (where they are smaller), replacing older ones; false for a file that gets
 * none. A file changed after the build (a deployment's edit) must be compressed again, or the old copy is served.
 */
export function precompressFile(file: string): boolean {
  if (!TEXT.test(file)) return false;
  const raw = readFileSync(file);
  for (const stale of [`${file}.br`, `${file}.gz`]) rmSync(stale, { force: true });
  if (raw.length < MIN_BYTES) return false;
  const br = brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
  const gz = gzipSync(raw, { level: 9 });
  // A copy no smaller than the file is not written: the server then sends the file itself.
  if (br.length < raw.length) writeFileSync(`${file}.br`, br);
  if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
  return true;
}

/**
 * The Vite side: runs after every other plugin has written its files (the service worker and the manifest of
 * vite-plugin-pwa included), so index.html and sw.js are compressed as written last.
 */
export function precompress(outDir: () => string): Plugin {
  return {
    name: 'tradewave:precompress',
    apply: 'build',
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        precompressDir(outDir());
      },
    },
  };
}
