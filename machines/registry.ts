import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MachineEntry } from './model';

/**
 * Every order machine of the app, as QA looks them up: each product folder's `drawing.ts` (its name, what it models,
 * the machine, and the walks its model-based tests take), found by that name, so a new product adds its file and
 * edits nothing here. `npm run machines` draws each one and lists its test paths under docs/machines/; the support
 * console's Machines screen and the order pages' "show order flow" read those generated files (never the machines).
 * Read in Node only (the drawing script, its tests and the browser tests' plan), never by the client bundle.
 */
const here = dirname(fileURLToPath(import.meta.url));
const products = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(here, d.name, 'drawing.ts')))
  .map((d) => d.name)
  .sort();

export const MACHINES: readonly MachineEntry[] = await Promise.all(
  products.map(async (product) => ((await import(`./${product}/drawing.ts`)) as { drawing: MachineEntry }).drawing),
);

export function machineEntry(id: string): MachineEntry | undefined {
  return MACHINES.find((m) => m.id === id);
}
