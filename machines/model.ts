import type { AnyStateMachine, EventFromLogic, InputFrom, SnapshotFrom } from 'xstate';
import type { TraversalOptions } from 'xstate/graph';

/**
 * One walk of a machine's model-based tests: the events the model may send in each state (timers and call answers
 * by their XState names), the machine's input for the walk (a fixed server clock, a counter for request ids), and
 * when two snapshots count as the same state. The tests walk it with xstate/graph's path generators; the QA view
 * lists the same walks' shortest paths (machines/registry.ts), so what QA reads is what the tests run.
 */
export type MachineWalk<TMachine extends AnyStateMachine = AnyStateMachine> = TraversalOptions<
  SnapshotFrom<TMachine>,
  EventFromLogic<TMachine>,
  InputFrom<TMachine>
>;

/** A machine's walks by name (e.g. `shortest`, or one per role of a C2C order). */
export type MachineWalks<TMachine extends AnyStateMachine = AnyStateMachine> = Record<string, MachineWalk<TMachine>>;

/**
 * One machine as QA looks it up (DESIGN "Who uses it"): each product's `machines/<product>/drawing.ts` exports one,
 * and machines/registry.ts collects them.
 */
export interface MachineEntry {
  /** File and URL name, e.g. `lever-order`. */
  id: string;
  /** The order page it drives, in the words of SPEC 2. */
  name: string;
  /** What it models, in English: written into docs/machines/<id>.paths.json, which the console's QA screen shows. */
  models: string;
  machine: AnyStateMachine;
  /**
   * Its walks. They are typed for their own machine; entries sit side by side, which TypeScript can only express
   * with the widest machine type (each pair is checked where it is made, in the model file beside the machine).
   */
  walks: MachineWalks;
}
