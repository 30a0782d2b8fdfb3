import { getShortestPaths } from 'xstate/graph';
import { eventName } from '../graph';
import type { MachineEntry } from '../model';

/** One step of a test path: the event sent and the state the machine is then in. */
export interface PathStep {
  event: string;
  state: string;
}

/** One shortest path of a walk: how the model-based test reaches `reaches`, step by step. */
export interface TestPath {
  walk: string;
  reaches: string;
  steps: PathStep[];
}

interface WalkedPath {
  state: { value: unknown };
  steps: { event: { type: string }; state: { value: unknown } }[];
}

/** A state value as QA reads it: `order.holding, prices.fresh` for `{ order: 'holding', prices: 'fresh' }`. */
export function stateText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return String(value);
  return Object.entries(value)
    .map(([region, inner]) => (typeof inner === 'string' ? `${region}.${inner}` : `${region}.(${stateText(inner)})`))
    .join(', ');
}

/**
 * The shortest paths of every walk of `entry`: exactly the paths its model-based tests replay (the same walks,
 * machines/<product>/<name>.model.ts), listed for QA.
 */
export function testPathsOf(entry: MachineEntry): TestPath[] {
  return Object.entries(entry.walks).flatMap(([walk, options]) =>
    (getShortestPaths(entry.machine, options as never) as unknown as WalkedPath[]).map((p) => ({
      walk,
      reaches: stateText(p.state.value),
      steps: p.steps.map((s) => ({ event: eventName(s.event.type), state: stateText(s.state.value) })),
    })),
  );
}
