import { c2cOrderMachine } from '../../../machines/c2c/order.machine';

/**
 * The order machine as QA reads it on the order page (DESIGN "Who uses it"): each state with the events that leave
 * it and where they go, read from the machine itself, so the drawing never drifts from the code.
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

interface NodeLike {
  key: string;
  transitions: Map<string, readonly { target?: readonly { key: string }[] | undefined }[]>;
  always?: readonly { target?: readonly { key: string }[] | undefined }[] | undefined;
  states: Record<string, NodeLike>;
}

/** A readable event name: `xstate.after.untilPayDeadline.c2cOrder.x` is `after untilPayDeadline`. */
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

let cached: { root: GraphEdge[]; nodes: GraphNode[] } | undefined;

/** The machine's states in declaration order, and the transitions every state has (the root's). */
export function orderGraph(): { root: GraphEdge[]; nodes: GraphNode[] } {
  if (!cached) {
    const root = c2cOrderMachine.root as unknown as NodeLike;
    cached = {
      root: edgesOf(root),
      nodes: Object.values(root.states).map((n) => ({ state: n.key, edges: edgesOf(n) })),
    };
  }
  return cached;
}
