import ELK from 'elkjs/lib/elk.bundled.js';
import type { MachineEntry } from '../model';
import { MACHINES } from '../registry';
import { chartOf } from './chart';
import { layoutChart } from './layout';
import { testPathsOf } from './paths';
import { chartSvg } from './svg';

/** Where `npm run machines` writes, relative to the project root (npm scripts and vitest run there). */
export const DOCS_DIR = 'docs/machines';

/** The files of one machine under docs/machines/: its drawing and its test paths, by file name. */
export async function machineDocs(entry: MachineEntry, elk = new ELK()): Promise<Record<string, string>> {
  const placed = await layoutChart(chartOf(entry.machine), elk);
  const paths = { machine: entry.id, name: entry.name, models: entry.models, paths: testPathsOf(entry) };
  return {
    [`${entry.id}.svg`]: chartSvg(placed, `${entry.name}: ${entry.models}`),
    [`${entry.id}.paths.json`]: `${JSON.stringify(paths, null, 2)}\n`,
  };
}

/** Every machine's files, by file name. */
export async function allMachineDocs(): Promise<Record<string, string>> {
  const elk = new ELK();
  const files: Record<string, string> = {};
  for (const entry of MACHINES) Object.assign(files, await machineDocs(entry, elk));
  return files;
}
