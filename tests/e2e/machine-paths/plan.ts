import { type TestPath, testPathsOf } from '../../../machines/drawing/paths';
import { machineEntry } from '../../../machines/registry';

/** One step of a path as the browser test replays it: the event, and the state the page must then show. */
export interface Step {
  event: string;
  /** QA's spelling of the state (`order.holding, prices.fresh`). */
  state: string;
  /** Each region's state: `{ order: 'holding', prices: 'fresh' }`. */
  regions: Record<string, string>;
  /** The drawing's ids of those states (`leverOrder.order.holding`, …), as MachineChart marks them. */
  ids: string[];
}

export interface MachinePath {
  /** The test's name: where the path ends and the events that lead there. */
  title: string;
  reaches: string;
  steps: Step[];
}

/**
 * The shortest paths of one walk of a registered machine (machines/registry.ts), generated as the QA view lists
 * them (machines/drawing/paths.ts): the browser test gets one test per path, never a hand-made list.
 */
export function pathsOf(machineId: string, walk: string): MachinePath[] {
  const entry = machineEntry(machineId);
  if (!entry) throw new Error(`no machine ${machineId} in the registry`);
  const paths = testPathsOf(entry).filter((p) => p.walk === walk);
  if (paths.length === 0) throw new Error(`machine ${machineId} has no walk ${walk}`);
  return paths.map((p) => planOf(entry.machine.id, p));
}

function planOf(machineKey: string, path: TestPath): MachinePath {
  const steps = path.steps.map((s): Step => {
    const regions = regionsOf(s.state);
    return {
      event: s.event,
      state: s.state,
      regions,
      ids: Object.entries(regions).map(([r, v]) => `${machineKey}.${r}.${v}`),
    };
  });
  const events = steps.slice(1).map((s) => s.event);
  const title = `${path.reaches} ← ${events.length === 0 ? 'start' : events.join(' → ')}`;
  return { title, reaches: path.reaches, steps };
}

/** `order.holding, prices.fresh` → `{ order: 'holding', prices: 'fresh' }`; these machines have flat regions only. */
function regionsOf(state: string): Record<string, string> {
  if (state.includes('(')) throw new Error(`nested state ${state}: the browser test knows flat regions only`);
  return Object.fromEntries(
    state.split(', ').map((part) => {
      const dot = part.indexOf('.');
      return [part.slice(0, dot), part.slice(dot + 1)];
    }),
  );
}

/** Whether a path passes through `state` of region `region` (its plan: which book, which order type, …). */
export const passes = (path: MachinePath, region: string, state: string): boolean =>
  path.steps.some((s) => s.regions[region] === state);
