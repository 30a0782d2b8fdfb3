import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { MachineEntry } from './model';

/**
 * Every order machine of the app, as QA looks them up: each product folder's `drawing.ts` (or a machine folder's in it) (its name, what it models,
 * the machine, and the walks its model-based tests take), found by that name, so a new product adds its file and
 * edits nothing here. `npm run machines` draws each one and lists its test paths under docs/machines/; the support
 * console's Machines screen and the order pages' "show order flow" read those generated files (never the machines).
 * Read in Node only (the drawing script, its tests and the browser tests' plan), never by the client bundle.
 */
const here = dirname(fileURLToPath(import.meta.url));
/** A product's folder, and the folders in it for a machine of its own (e.g. `lever/close-all`). */
const folders = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => [
    d.name,
    ...readdirSync(join(here, d.name), { withFileTypes: true })
      .filter((inner) => inner.isDirectory())
      .map((inner) => `${d.name}/${inner.name}`),
  ]);
const products = folders.filter((folder) => existsSync(join(here, folder, 'drawing.ts'))).sort();

export const MACHINES: readonly MachineEntry[] = await Promise.all(
  products.map(async (product) => {
    // A path two folders deep is beyond what the bundler's variable-import rewrite covers: import the file itself.
    const file = pathToFileURL(join(here, product, 'drawing.ts')).href;
    return ((await import(/* @vite-ignore */ file)) as { drawing: MachineEntry }).drawing;
  }),
);

export function machineEntry(id: string): MachineEntry | undefined {
  return MACHINES.find((m) => m.id === id);
}
