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
