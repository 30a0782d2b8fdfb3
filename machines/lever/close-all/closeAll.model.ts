import type { LeverPosition } from '../../../protocol/lever';
import type { MachineWalks } from '../../model';
import { position } from '../order.model';
import type {
  CloseAllAnswer,
  CloseAllEvent,
  CloseAllInput,
  CloseAllSnapshot,
  leverCloseAllMachine,
} from './closeAll.machine';

/**
 * The close-all machine's model: the book it starts with, the answers the model-based test sends
 * (closeAll.machine.test.ts), and the walk it takes with them. The QA view lists the same walk (machines/registry.ts),
 * so the paths QA reads are the paths the test replays.
 */

/** Two positions of the simulator book hold when the walk starts. */
export const START: CloseAllInput = { book: 'simulator', holding: 2 };

/** The two positions as the server answers them: each put into closing, to close at its instrument's next tick. */
export const closingTwo: LeverPosition[] = [
  position('closing', 6_000),
  position('closing', 6_000, { id: 8, order_no: 'L000008', symbol: 'ETH', direction: 'short' }),
];

export const answered = (output: CloseAllAnswer) => ({ type: 'xstate.done.actor.closeAll', output }) as const;

export const REFUSAL = 'Too many requests – please try again shortly';

/**
 * The events the model may take. The done and error events of the invoked call stand for the server's answers;
 * HOLDING moves the book between something holding and nothing holding (a position liquidated, or closed elsewhere).
 */
export const EVENTS = {
  open: { type: 'OPEN' },
  confirm: { type: 'CONFIRM' },
  back: { type: 'BACK' },
  closed: answered({ ok: true, positions: closingTwo }),
  refused: answered({ ok: false, message: REFUSAL, answered: true, reason: 'rateLimited' }),
  lost: { type: 'xstate.error.actor.closeAll', error: new Error('offline') },
  noneHolding: { type: 'HOLDING', count: 0 },
  twoHolding: { type: 'HOLDING', count: 2 },
  stale: { type: 'PRICES_STALE' },
  fresh: { type: 'PRICES_FRESH' },
} as const;

export type ModelEvent = CloseAllEvent | (typeof EVENTS)[keyof typeof EVENTS];

/**
 * The walk's events as the path generators type them: the call's done and error events reach the machine too (XState
 * sends them when the call settles) but are not among the events it declares, so the list is narrowed here.
 */
const asMachineEvents = (events: readonly ModelEvent[]) => events as readonly CloseAllEvent[];

/**
 * A node of the walk: the state and whether anything holds. Whether anything holds decides what OPEN and CONFIRM do,
 * so two nodes that differ there must not be merged; it is finite, so the walk ends.
 */
export const nodeKey = (snapshot: CloseAllSnapshot) =>
  JSON.stringify({ ...(snapshot.value as object), holds: snapshot.context.holding > 0 });

// The path generators walk the graph (createTestModel refuses machines that invoke), so the walk is their options.
export const closeAllWalks = {
  /** Every event in every node: each state is reached with prices fresh and stale, with positions holding and not. */
  shortest: {
    input: START,
    events: asMachineEvents(Object.values(EVENTS)),
    serializeState: nodeKey,
  },
} satisfies MachineWalks<typeof leverCloseAllMachine>;
