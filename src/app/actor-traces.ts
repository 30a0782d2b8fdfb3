import type { InspectionEvent } from 'xstate';
import { serverNow } from '../../core/clock';
import { newRequestId } from '../../core/ids';
import { activeStateIds } from '../../machines/drawing/current';
import { TRACE_BATCH_MAX, type TracedMachine, type TraceStep } from '../../protocol/inspection';
import { isLoggedIn } from '../state/session';

/**
 * Live inspection (issue 15): every order actor reports its steps through XState's inspection API, so QA can follow
 * an order on its machine in the support console. A step is the event the actor received and the atomic states
 * active after it. Reports go out at most once a second, batched, without a loading bar or a toast; they are only
 * diagnostics, and a lost batch costs nothing but its steps.
 *
 * Steps come before the actor knows its order (choosing, submitting): they wait in the actor's buffer and go with the
 * first step that names the order, so the timeline starts at the ticket. A ticket's actor buys one order after the
 * other: its steps belong to the order its context names at the time.
 */

/** How long steps gather before they are sent. */
export const TRACE_FLUSH_MS = 1_000;
/** Steps an actor keeps while it has no order yet (a ticket left open for long keeps its newest). */
const BUFFER_MAX = 50;

const EVENT_SAFE = /[^\w.:\- ]/g;

interface ActorTrace {
  machine: TracedMachine;
  /** The id the server files the steps under: random, one per actor. */
  id: string;
  seq: number;
  /** Event and states of the last step, so a repeat that changed nothing is not sent again. */
  last: string;
  /** Steps before the actor named its order. */
  waiting: TraceStep[];
}

interface Batch {
  machine: TracedMachine;
  order: number;
  actor: string;
  steps: TraceStep[];
}

export interface TraceReporter {
  /**
   * The `inspect` option of one order actor: `orderOf` reads the order's id from the actor's context. With
   * `machineId`, the option of a whole system (a live controller's root actor): every actor in it that runs the
   * machine of that id is traced, each as its own actor.
   */
  inspect<C>(
    machine: TracedMachine,
    orderOf: (context: C) => number | null | undefined,
    machineId?: string,
  ): (ev: InspectionEvent) => void;
  /** Sends what has gathered (the timer calls it; tests call it). */
  flush(): Promise<void>;
}

export interface TraceReporterOptions {
  send: (batch: Batch) => Promise<unknown>;
  /** Whether anyone is signed in: without a session the steps are dropped, not sent. */
  signedIn: () => boolean;
  now: () => number;
  schedule: (run: () => void, ms: number) => unknown;
}

export function createTraceReporter(options: TraceReporterOptions): TraceReporter {
  // By the actor itself: gone with it, whenever it stops.
  const actors = new WeakMap<object, ActorTrace>();
  const pending = new Map<string, Batch>();
  let scheduled = false;

  const enqueue = (trace: ActorTrace, order: number, steps: TraceStep[]) => {
    const key = `${trace.id}|${order}`;
    const batch = pending.get(key) ?? { machine: trace.machine, order, actor: trace.id, steps: [] };
    batch.steps.push(...steps);
    pending.set(key, batch);
    if (!scheduled) {
      scheduled = true;
      options.schedule(() => void flush(), TRACE_FLUSH_MS);
    }
  };

  async function flush(): Promise<void> {
    scheduled = false;
    const batches = [...pending.values()];
    pending.clear();
    if (!options.signedIn()) return;
    for (const batch of batches) {
      for (let k = 0; k < batch.steps.length; k += TRACE_BATCH_MAX) {
        await options.send({ ...batch, steps: batch.steps.slice(k, k + TRACE_BATCH_MAX) }).catch(() => undefined);
      }
    }
  }

  function inspect<C>(machine: TracedMachine, orderOf: (context: C) => number | null | undefined, machineId?: string) {
    return (ev: InspectionEvent) => {
      // Only the order actors' own snapshots: their invoked calls (and a controller's root) report theirs too.
      if (ev.type !== '@xstate.snapshot') return;
      if (machineId === undefined && ev.actorRef.sessionId !== ev.rootId) return;
      const snapshot = ev.snapshot as { value?: unknown; context?: C; machine?: { id: string } };
      if (!snapshot.machine || snapshot.context === undefined) return;
      if (machineId !== undefined && snapshot.machine.id !== machineId) return;
      let trace = actors.get(ev.actorRef);
      if (!trace) {
        trace = { machine, id: newRequestId().replaceAll('-', ''), seq: 0, last: '', waiting: [] };
        actors.set(ev.actorRef, trace);
      }
      const states = activeStateIds(snapshot.machine.id, snapshot.value).slice(0, 8);
      const event = ev.event.type.replace(EVENT_SAFE, '_').slice(0, 120) || 'unknown';
      const key = `${event}|${states.join(' ')}`;
      // A list refresh sends the same update again and again; only a step that says something new is kept.
      if (key === trace.last || states.length === 0) return;
      trace.last = key;
      // A time, not money: server time comes from a monotonic clock in fractional ms; the server stores whole ms.
      const step: TraceStep = { seq: trace.seq++, at: Math.round(options.now()), event, states };
      const order = orderOf(snapshot.context);
      if (order === null || order === undefined) {
        trace.waiting.push(step);
        if (trace.waiting.length > BUFFER_MAX) trace.waiting.shift();
      } else {
        enqueue(trace, order, [...trace.waiting, step]);
        trace.waiting = [];
      }
    };
  }

  return { inspect, flush };
}

/** The app's reporter: steps to qa/trace on server time, while someone is signed in. */
export const actorTraces = createTraceReporter({
  // The call and its schemas load with the first report, not with every trading page.
  send: async (b) => (await import('../../core/api/inspection')).reportTrace(b.machine, b.order, b.actor, b.steps),
  signedIn: () => isLoggedIn(),
  now: serverNow,
  schedule: (run, ms) => setTimeout(run, ms),
});

/** `inspect` for an order actor: `useMachine(machine, { input, inspect: traceActor('lever-order', (c) => …) })`. */
export const traceActor = actorTraces.inspect;
