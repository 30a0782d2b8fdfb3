/**
 * A machine as QA reads it beside a live order (DESIGN "Who uses it"): each state with the events that leave it and
 * where they go, read from the machine itself, so a drawing never drifts from the code. Shared by every product's
 * order page that draws its machine.
 */

export interface GraphEdge {
  /** The event as the machine names it (a timer as `after <delay>`, a call's answer as `<call> done|error`). */
  event: string;
  targets: string[];
}

export interface GraphNode {
  state: string;
  edges: GraphEdge[];
}

export interface MachineGraph {
  /** The transitions every state has (the root's). */
  root: GraphEdge[];
  /** The top-level states in declaration order. */
  nodes: GraphNode[];
}

interface NodeLike {
  key: string;
  transitions: Map<string, readonly { target?: readonly { key: string }[] | undefined }[]>;
  always?: readonly { target?: readonly { key: string }[] | undefined }[] | undefined;
  states: Record<string, NodeLike>;
}

/** A readable event name: `xstate.after.untilAllotment.ieoSubscription.x` is `after untilAllotment`. */
export function eventName(type: string): string {
  const after = /^xstate\.after\.([^.]+)\./.exec(type);
  if (after) return `after ${after[1]}`;
  const done = /^xstate\.(done|error)\.actor\.(.+)$/.exec(type);
  if (done) return `${done[2]} ${done[1]}`;
  return type;
}

function edgesOf(node: NodeLike): GraphEdge[] {
  const edges: GraphEdge[] = [];
  for (const [type, list] of node.transitions) {
    const targets = [...new Set(list.flatMap((t) => (t.target ?? []).map((n) => n.key)))];
    if (targets.length > 0) edges.push({ event: eventName(type), targets });
  }
  const always = [...new Set((node.always ?? []).flatMap((t) => (t.target ?? []).map((n) => n.key)))];
  if (always.length > 0) edges.push({ event: 'always', targets: always });
  return edges;
}

const graphs = new WeakMap<object, MachineGraph>();

/** The graph of a machine (XState v5 `createMachine` result), read once and kept. */
export function machineGraph(machine: { root: unknown }): MachineGraph {
  let graph = graphs.get(machine);
  if (!graph) {
    const root = machine.root as NodeLike;
    graph = {
      root: edgesOf(root),
      nodes: Object.values(root.states).map((n) => ({ state: n.key, edges: edgesOf(n) })),
    };
    graphs.set(machine, graph);
  }
  return graph;
}
