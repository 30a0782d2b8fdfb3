import { z } from 'zod/mini';

/**
 * What the console's Machines screen (role qa) reads of `npm run machines`' files: docs/machines/<id>.paths.json, one
 * per machine of machines/registry.ts (machines/drawing/docs.ts writes them). Only the files, never the machines:
 * their code (XState) stays out of the console.
 */
export const machineDoc = z.object({
  /** The registry id, also the drawing's (docs/machines/<id>.svg). */
  machine: z.string().check(z.minLength(1)),
  name: z.string(),
  /** What the machine models, one sentence. */
  models: z.string(),
  paths: z.array(
    z.object({
      walk: z.string(),
      reaches: z.string(),
      steps: z.array(z.object({ event: z.string(), state: z.string() })),
    }),
  ),
});
export type MachineDoc = z.infer<typeof machineDoc>;
export type TestPath = MachineDoc['paths'][number];

/** One walk of a machine's model-based tests and the paths it takes. */
export interface Walk {
  walk: string;
  paths: TestPath[];
}

/** The paths by walk, walks in the order they first appear and each walk's paths in file order. */
export function pathsByWalk(paths: readonly TestPath[]): Walk[] {
  const walks = new Map<string, TestPath[]>();
  for (const p of paths) {
    const list = walks.get(p.walk);
    if (list) list.push(p);
    else walks.set(p.walk, [p]);
  }
  return [...walks].map(([walk, list]) => ({ walk, paths: list }));
}

/** XState's start, the first step of every path: the machine's initial state, reached without an event sent. */
export const START_EVENT = 'xstate.init';

/** The machine id of a paths file's name (`…/lever-order.paths.json` → `lever-order`), null for any other file. */
export function machineIdOf(file: string): string | null {
  return /(?:^|\/)([a-z0-9-]+)\.paths\.json$/.exec(file)?.[1] ?? null;
}
