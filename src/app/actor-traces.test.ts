// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { assign, createActor, createMachine, fromPromise } from 'xstate';
import { createTraceReporter } from './actor-traces';

/** A small order machine: a ticket that places an order (an invoked call), then follows it in two regions. */
const orderMachine = createMachine({
  id: 'probeOrder',
  types: {} as { context: { order: number | null } },
  context: { order: null },
  type: 'parallel',
  states: {
    order: {
      initial: 'choosing',
      states: {
        choosing: { on: { SUBMIT: 'placing' } },
        placing: {
          invoke: {
            src: fromPromise(async () => 41),
            onDone: { target: 'open', actions: assign({ order: ({ event }) => event.output + 1 }) },
          },
        },
        open: { on: { UPDATE: 'open', FILL: 'filled' } },
        filled: { type: 'final' },
      },
    },
    prices: { initial: 'stale', states: { stale: { on: { FRESH: 'fresh' } }, fresh: { on: { STALE: 'stale' } } } },
  },
});

function setUp(signedIn = true) {
  const sent: {
    machine: string;
    order: number;
    actor: string;
    steps: { seq: number; event: string; states: string[] }[];
  }[] = [];
  const timers: (() => void)[] = [];
  const reporter = createTraceReporter({
    send: async (b) => sent.push(b),
    signedIn: () => signedIn,
    now: () => 1_700_000_000_000,
    schedule: (run) => timers.push(run),
  });
  const actor = createActor(orderMachine, {
    inspect: reporter.inspect<{ order: number | null }>('spot-order', (c) => c.order),
  });
  return { sent, timers, reporter, actor };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('order actor traces', () => {
  it('sends the steps before the order with the first that names it, then each new step once, batched', async () => {
    const { sent, timers, reporter, actor } = setUp();
    actor.start();
    actor.send({ type: 'FRESH' });
    actor.send({ type: 'SUBMIT' });
    expect(timers).toHaveLength(0); // no order yet: nothing to file the steps under
    await settle(); // the invoked call answers
    actor.send({ type: 'UPDATE' });
    actor.send({ type: 'UPDATE' }); // the same event to the same states again: nothing new to say
    actor.send({ type: 'FILL' });
    expect(timers).toHaveLength(1); // one flush scheduled for everything
    await reporter.flush();
    expect(sent).toHaveLength(1);
    const [batch] = sent;
    expect(batch?.machine).toBe('spot-order');
    expect(batch?.order).toBe(42);
    expect(batch?.actor).toMatch(/^[a-z0-9]{32}$/);
    expect(batch?.steps.map((s) => [s.seq, s.event, s.states])).toEqual([
      [0, 'xstate.init', ['probeOrder.order.choosing', 'probeOrder.prices.stale']],
      [1, 'FRESH', ['probeOrder.order.choosing', 'probeOrder.prices.fresh']],
      [2, 'SUBMIT', ['probeOrder.order.placing', 'probeOrder.prices.fresh']],
      [3, expect.stringMatching(/^xstate\.done\.actor\./), ['probeOrder.order.open', 'probeOrder.prices.fresh']],
      [4, 'UPDATE', ['probeOrder.order.open', 'probeOrder.prices.fresh']],
      [5, 'FILL', ['probeOrder.order.filled', 'probeOrder.prices.fresh']],
    ]);
  });

  it('repeats a step only when something changed, and splits long batches', async () => {
    const { sent, reporter, actor } = setUp();
    actor.start();
    actor.send({ type: 'SUBMIT' });
    await settle();
    for (let i = 0; i < 60; i++) actor.send({ type: i % 2 ? 'STALE' : 'FRESH' });
    actor.send({ type: 'STALE' }); // the same event to the same states as the last: dropped
    await reporter.flush();
    expect(sent.map((b) => b.steps.length)).toEqual([50, 13]);
    expect(sent.flatMap((b) => b.steps.map((s) => s.seq))).toEqual(Array.from({ length: 63 }, (_, i) => i));
  });

  it('sends nothing without a session', async () => {
    const { sent, reporter, actor } = setUp(false);
    actor.start();
    actor.send({ type: 'SUBMIT' });
    await settle();
    await reporter.flush();
    expect(sent).toEqual([]);
  });

  it('gives each actor of the same order its own id', async () => {
    const { sent, reporter, actor } = setUp();
    const reporterInspect = reporter.inspect<{ order: number | null }>('spot-order', (c) => c.order);
    const second = createActor(orderMachine, { inspect: reporterInspect });
    for (const a of [actor, second]) {
      a.start();
      a.send({ type: 'SUBMIT' });
    }
    await settle();
    await reporter.flush();
    expect(sent).toHaveLength(2);
    expect(new Set(sent.map((b) => b.actor)).size).toBe(2);
    expect(sent.every((b) => b.order === 42)).toBe(true);
  });
});
