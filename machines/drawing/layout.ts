import type { ElkExtendedEdge, ELK as ElkInstance, ElkNode } from 'elkjs/lib/elk-api';
import type { Chart, ChartState, ChartTransition } from './chart';

/**
 * Lays a chart out with ELK's layered algorithm (elkjs, in-process, no outside service): states as boxes, compound
 * and parallel states as boxes around their children, transitions as routed arrows with their labels. Text is sized
 * for the monospace font the drawing uses, so the layout is the same on every machine.
 */

export interface Point {
  x: number;
  y: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlacedState extends Box {
  state: ChartState;
  /** A region of a parallel state (all entered at once): drawn dashed. */
  region: boolean;
  children: PlacedState[];
}

export interface PlacedTransition {
  transition: ChartTransition;
  points: Point[];
  label: Box | null;
}

/** Where a compound state's "start here" dot sits, and the arrow from it to the initial child. */
export interface PlacedStart {
  parent: string;
  dot: Box;
  points: Point[];
}

export interface PlacedChart {
  chart: Chart;
  width: number;
  height: number;
  states: PlacedState[];
  transitions: PlacedTransition[];
  starts: PlacedStart[];
  /** Transitions of the machine itself, taken in any state: listed above the drawing, not drawn as arrows. */
  anyState: ChartTransition[];
}

/** The drawing's type: 11px monospace, about 6.7px a character; a label line is 14px high. */
export const FONT_SIZE = 11;
export const CHAR_WIDTH = 6.7;
export const LINE_HEIGHT = 14;
/** Room above a compound state's children for its name. */
export const TITLE_HEIGHT = 22;
const STATE_HEIGHT = 30;
const DOT = 10;

const textWidth = (text: string): number => Math.ceil(text.length * CHAR_WIDTH);

const LAYOUT_OPTIONS: Record<string, string> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.spacing.nodeNode': '24',
  'elk.layered.spacing.nodeNodeBetweenLayers': '36',
  'elk.spacing.edgeLabel': '4',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.json.edgeCoords': 'ROOT',
  'elk.json.shapeCoords': 'ROOT',
};
const COMPOUND_OPTIONS = { 'elk.padding': `[top=${TITLE_HEIGHT + 8},left=12,bottom=12,right=12]` };

const startId = (parent: string) => `${parent}#start`;

function elkNode(state: ChartState, edges: ElkExtendedEdge[]): ElkNode {
  if (state.children.length === 0) {
    const width = Math.max(72, textWidth(state.key) + 24);
    return { id: state.id, width, height: STATE_HEIGHT };
  }
  const children = state.children.map((c) => elkNode(c, edges));
  if (state.initial) {
    children.unshift({ id: startId(state.id), width: DOT, height: DOT });
    edges.push({ id: `${state.id}#initial`, sources: [startId(state.id)], targets: [state.initial] });
  }
  return {
    id: state.id,
    layoutOptions: { ...COMPOUND_OPTIONS, 'elk.nodeSize.minimum': `(${textWidth(state.key) + 24}, 0)` },
    children,
  };
}

function elkEdge(t: ChartTransition): ElkExtendedEdge {
  const width = Math.max(...t.labels.map(textWidth)) + 4;
  return {
    id: t.id,
    sources: [t.source],
    targets: [t.target],
    labels: [{ id: `${t.id}#label`, text: t.labels.join('\n'), width, height: t.labels.length * LINE_HEIGHT }],
  };
}

const pointsOf = (edge: ElkExtendedEdge): Point[] =>
  (edge.sections ?? []).flatMap((s) => [s.startPoint, ...(s.bendPoints ?? []), s.endPoint]);

const boxOf = (n: { x?: number; y?: number; width?: number; height?: number }): Box => ({
  x: n.x ?? 0,
  y: n.y ?? 0,
  width: n.width ?? 0,
  height: n.height ?? 0,
});

/** Lays `chart` out with `elk` (an `ELK` instance from elkjs). */
export async function layoutChart(chart: Chart, elk: ElkInstance): Promise<PlacedChart> {
  const edges: ElkExtendedEdge[] = [];
  const top = chart.root.children.map((c) => elkNode(c, edges));
  if (chart.root.initial) {
    top.unshift({ id: startId(chart.root.id), width: DOT, height: DOT });
    edges.push({ id: `${chart.root.id}#initial`, sources: [startId(chart.root.id)], targets: [chart.root.initial] });
  }
  const fromRoot = (t: ChartTransition) => t.source === chart.root.id;
  const drawn = chart.transitions.filter((t) => !fromRoot(t));
  edges.push(...drawn.map(elkEdge));
  const input: ElkNode = { id: chart.root.id, layoutOptions: LAYOUT_OPTIONS, children: top, edges };
  const graph: ElkNode = await elk.layout(input);

  const byId = new Map<string, ElkNode>();
  const index = (n: ElkNode) => {
    byId.set(n.id, n);
    for (const c of n.children ?? []) index(c);
  };
  index(graph);

  const place = (state: ChartState, parentKind: ChartState['kind']): PlacedState => {
    const node = byId.get(state.id);
    if (!node) throw new Error(`ELK lost state ${state.id}`);
    return {
      ...boxOf(node),
      state,
      region: parentKind === 'parallel',
      children: state.children.map((c) => place(c, state.kind)),
    };
  };

  const laidEdges = new Map((graph.edges ?? []).map((e) => [e.id, e]));
  const transitions = drawn.map((t): PlacedTransition => {
    const edge = laidEdges.get(t.id);
    const label = edge?.labels?.[0];
    return { transition: t, points: edge ? pointsOf(edge) : [], label: label ? boxOf(label) : null };
  });

  const starts: PlacedStart[] = [];
  for (const [id, node] of byId) {
    if (!id.endsWith('#start')) continue;
    const parent = id.slice(0, -'#start'.length);
    const edge = laidEdges.get(`${parent}#initial`);
    starts.push({ parent, dot: boxOf(node), points: edge ? pointsOf(edge) : [] });
  }

  return {
    chart,
    width: Math.ceil(graph.width ?? 0),
    height: Math.ceil(graph.height ?? 0),
    states: chart.root.children.map((c) => place(c, chart.root.kind)),
    transitions,
    starts,
    anyState: chart.transitions.filter(fromRoot),
  };
}
