import type { AnyStateMachine } from 'xstate';
import { type DirectedGraphNode, toDirectedGraph } from 'xstate/graph';
import { eventName } from '../graph';

/**
 * A machine's statechart as the drawing needs it, read from the machine itself (xstate/graph's `toDirectedGraph`
 * plus the eventless transitions it leaves out), so a drawing never drifts from the code.
 */

export type StateKind = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

export interface ChartState {
  /** The state's full id, e.g. `leverOrder.order.entering`: the live view marks the current states by it. */
  id: string;
  key: string;
  kind: StateKind;
  /** The child entered first (compound states only; every region of a parallel state is entered at once). */
  initial: string | null;
  children: ChartState[];
}

export interface ChartTransition {
  id: string;
  source: string;
  target: string;
  /** One line per transition between the two states: the event, its guard in brackets. */
  labels: string[];
  /** Taken when a delay runs out (XState `after`): drawn dashed. */
  timer: boolean;
}

export interface Chart {
  machine: string;
  root: ChartState;
  transitions: ChartTransition[];
}

interface GuardLike {
  type?: string;
  name?: string;
  guards?: unknown[];
}

/** A guard's readable name: its type, or for `and`/`or`/`not` the guards combined; an inline guard shows as `if`. */
export function guardName(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (guard === null || guard === undefined) return '';
  const g = guard as GuardLike;
  if (typeof guard === 'function' && Array.isArray(g.guards)) {
    const parts = g.guards.map(guardName);
    if (g.name === 'not') return `!${parts[0] ?? ''}`;
    return parts.join(g.name === 'or' ? ' | ' : ' & ');
  }
  if (typeof guard === 'object' && typeof g.type === 'string') return g.type;
  return 'if';
}

interface TransitionLike {
  eventType: string;
  guard?: unknown;
  target?: readonly { id: string }[] | undefined;
}

interface StateNodeLike {
  id: string;
  key: string;
  type: StateKind;
  initial?: { target: readonly { id: string }[] } | undefined;
  always?: readonly TransitionLike[] | undefined;
}

const labelOf = (t: TransitionLike): string => {
  const event = t.eventType === '' ? 'always' : eventName(t.eventType);
  const guard = guardName(t.guard);
  return guard ? `${event} [${guard}]` : event;
};

/** Reads `machine` into a chart; transitions between the same two states share one arrow with a line each. */
export function chartOf(machine: AnyStateMachine): Chart {
  const edges = new Map<string, ChartTransition>();
  const add = (source: string, target: string, t: TransitionLike, stays = false) => {
    const key = `${source}→${target}`;
    const timer = t.eventType.startsWith('xstate.after.');
    const known = edges.get(key);
    const label = stays ? `${labelOf(t)} (stays)` : labelOf(t);
    if (known) {
      if (!known.labels.includes(label)) known.labels.push(label);
      known.timer = known.timer && timer;
    } else {
      edges.set(key, { id: `t${edges.size}`, source, target, labels: [label], timer });
    }
  };

  const read = (node: DirectedGraphNode): ChartState => {
    const sn = node.stateNode as unknown as StateNodeLike;
    for (const edge of node.edges) {
      const t = edge.transition as unknown as TransitionLike;
      // A transition without a target (actions only) is drawn on its own state, marked as staying there.
      add(sn.id, (edge.target as unknown as StateNodeLike).id, t, t.target === undefined || t.target.length === 0);
    }
    for (const t of sn.always ?? []) for (const target of t.target ?? []) add(sn.id, target.id, t);
    return {
      id: sn.id,
      key: sn.key,
      kind: sn.type,
      initial: sn.type === 'compound' ? (sn.initial?.target[0]?.id ?? null) : null,
      children: node.children.map(read),
    };
  };

  const root = read(toDirectedGraph(machine));
  return { machine: machine.id, root, transitions: [...edges.values()] };
}

/** Every state of the chart below the root, depth first. */
export function statesOf(chart: Chart): ChartState[] {
  const all: ChartState[] = [];
  const visit = (s: ChartState) => {
    for (const c of s.children) {
      all.push(c);
      visit(c);
    }
  };
  visit(chart.root);
  return all;
}
