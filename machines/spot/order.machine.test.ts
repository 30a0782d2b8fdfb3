// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import type { SpotOrder } from '../../protocol/spot';
import {
  NO_ANSWER,
  type OrderCallResult,
  type OrderEvent,
  type OrderPhase,
  type OrderSnapshot,
  orderView,
  placeOrderWith,
  spotOrderMachine,
} from './order.machine';
import { counter, draft, filled, order, spotOrderWalks as walks } from './order.model';

/**
 * Model-based: every shortest path and every simple path through the order machine (states serialised by value, so
 * the walk ends), replayed on a live actor whose calls the test answers, asserting at each step what the user sees
 * (orderView: status line, whether submit and cancel are enabled) and that the live actor is where the model is.
 */

/** What each state shows, whatever path led there. */
const EXPECTED: Record<OrderPhase, { cancel: boolean; submitWhenFresh: boolean; busy: boolean }> = {
  entering: { cancel: false, submitWhenFresh: true, busy: false },
  confirming: { cancel: false, submitWhenFresh: false, busy: false },
  submitting: { cancel: false, submitWhenFresh: false, busy: true },
  waiting: { cancel: false, submitWhenFresh: false, busy: false },
  pending: { cancel: true, submitWhenFresh: false, busy: false },
  cancelling: { cancel: false, submitWhenFresh: false, busy: true },
  completed: { cancel: false, submitWhenFresh: true, busy: false },
  cancelled: { cancel: false, submitWhenFresh: true, busy: false },
};

function assertView(snapshot: OrderSnapshot): void {
  const value = snapshot.value as { order: OrderPhase; prices: 'fresh' | 'stale' };
  const view = orderView(snapshot);
  const expected = EXPECTED[value.order];
  expect(view.phase).toBe(value.order);
  expect(view.labelKey).toBe(`spot.phase.${value.order}`);
  expect(view.cancelEnabled).toBe(expected.cancel);
  expect(view.busy).toBe(expected.busy);
  // Stale prices disable buy and sell (DESIGN "Realtime"); nothing else about the order changes.
  expect(view.submitEnabled).toBe(expected.submitWhenFresh && value.prices === 'fresh');
  expect(view.blockedByStalePrices).toBe(
    (expected.submitWhenFresh || value.order === 'confirming') && value.prices === 'stale',
  );
  // The confirmation sheet: CONFIRM is taken only on fresh prices, and the order it would send is held.
  expect(view.reviewing).toBe(value.order === 'confirming');
  expect(view.confirmEnabled).toBe(value.order === 'confirming' && value.prices === 'fresh');
  if (value.order === 'confirming') expect(view.draft).toEqual(draft);
  if (value.order === 'cancelled') expect(view.reasonKey).toMatch(/^spot\.cancelReason\.(no_tick|user)$/);
  if (value.order === 'completed') expect(view.order?.fill?.tick.seq).toBe(42);
  if (value.order === 'entering' && snapshot.context.error)
    expect(['Insufficient balance', NO_ANSWER]).toContain(view.error);
}

/** A live actor of the machine whose calls never settle by themselves: the test delivers their answers. */
function liveActor() {
  const calls: { place: unknown[]; cancel: unknown[] } = { place: [], cancel: [] };
  const machine = spotOrderMachine.provide({
    actors: {
      placeOrder: placeOrderWith((request) => {
        calls.place.push(request);
        return new Promise(() => {});
      }),
      cancelOrder: fromPromise<OrderCallResult, unknown>(({ input }) => {
        calls.cancel.push(input);
        return new Promise(() => {});
      }) as never,
    },
  });
  const actor = createActor(machine, { input: { makeId: counter() } });
  actor.start();
  return { actor, calls };
}

interface Path {
  state: OrderSnapshot;
  steps: { event: { type: string }; state: OrderSnapshot }[];
}

const describePath = (path: Path) =>
  `${path.steps.map((s) => s.event.type.replace('xstate.', '')).join(' → ') || '(start)'} ⇒ ${JSON.stringify(path.state.value)}`;

async function replay(path: Path) {
  const { actor } = liveActor();
  assertView(actor.getSnapshot());
  for (const step of path.steps) {
    // Done and error events of the invoked calls are what the calls would deliver; the rest are the user's or the
    // server's. All reach the actor the same way.
    actor.send(step.event as OrderEvent);
    expect(actor.getSnapshot().value).toEqual(step.state.value);
    assertView(actor.getSnapshot());
  }
  actor.stop();
}

describe('spot order machine (model-based)', () => {
  // One walk (order.model.ts), generated two ways: its shortest paths and all its simple paths.
  const shortest = getShortestPaths(spotOrderMachine, walks.shortest) as unknown as Path[];
  const simple = getSimplePaths(spotOrderMachine, walks.shortest) as unknown as Path[];

  it('reaches every state of the lifecycle, in both price states', () => {
    const reached = new Set(shortest.map((p) => JSON.stringify(p.state.value)));
    for (const phase of Object.keys(EXPECTED)) {
      for (const prices of ['fresh', 'stale']) {
        // submitting and cancelling are left only by answers, so they are reachable with stale prices too.
        expect(reached).toContain(JSON.stringify({ order: phase, prices }));
      }
    }
  });

  it.each(shortest.map((p) => [describePath(p), p] as const))('shortest path: %s', async (_, path) => {
    await replay(path);
  });

  // Every simple path replayed on a live actor: seconds of CPU, more on a busy 2-core machine.
  it('walks every simple path', async () => {
    expect(simple.length).toBeGreaterThan(shortest.length);
    for (const path of simple) await replay(path);
  }, 60_000);
});

describe('request ids', () => {
  it('a retry after no answer reuses the id; a definite answer ends it; a changed draft gets a new one', () => {
    const { actor, calls } = liveActor();
    actor.send({ type: 'PRICES_FRESH' });
    actor.send({ type: 'SUBMIT', draft });
    actor.send({ type: 'xstate.error.actor.placeOrder', error: new Error('offline') } as never);
    expect(orderView(actor.getSnapshot()).error).toBe(NO_ANSWER);
    actor.send({ type: 'SUBMIT', draft });
    actor.send({
      type: 'xstate.done.actor.placeOrder',
      output: { ok: false, message: 'ERROR', answered: false },
    } as never);
    actor.send({ type: 'SUBMIT', draft });
    const ids = calls.place.map((c) => (c as { request_id: string }).request_id);
    expect(ids).toEqual(['req-1', 'req-1', 'req-1']);

    // Refused by the server (definite): the next submission is a new one even with the same draft.
    actor.send({
      type: 'xstate.done.actor.placeOrder',
      output: { ok: false, message: 'Insufficient balance', answered: true },
    } as never);
    actor.send({ type: 'SUBMIT', draft });
    // A changed draft while an attempt is kept is another order.
    actor.send({ type: 'xstate.error.actor.placeOrder', error: new Error('offline') } as never);
    actor.send({ type: 'SUBMIT', draft: { ...draft, qty: '0.02' } });
    expect(calls.place.map((c) => (c as { request_id: string }).request_id).slice(3)).toEqual(['req-2', 'req-3']);
    actor.stop();
  });

  it('a reconnect while the placement waits sends it again under the same id', () => {
    const { actor, calls } = liveActor();
    actor.send({ type: 'PRICES_FRESH' });
    actor.send({ type: 'SUBMIT', draft });
    actor.send({ type: 'RECONNECT' });
    expect(calls.place).toEqual([
      { ...draft, request_id: 'req-1' },
      { ...draft, request_id: 'req-1' },
    ]);
    expect(orderView(actor.getSnapshot()).phase).toBe('submitting');
    // Outside a submission a reconnect sends nothing.
    actor.send({ type: 'xstate.done.actor.placeOrder', output: { ok: true, order: order('waiting', 1_000) } } as never);
    actor.send({ type: 'RECONNECT' });
    expect(calls.place).toHaveLength(2);
    actor.stop();
  });

  it('an update that overtakes the placement answer counts, and the older answer does not undo it', () => {
    const { actor } = liveActor();
    actor.send({ type: 'PRICES_FRESH' });
    actor.send({ type: 'SUBMIT', draft });
    // Matched by request id before the order id is known.
    actor.send({ type: 'ORDER_UPDATE', order: { ...filled, request_id: 'req-1' } });
    actor.send({ type: 'xstate.done.actor.placeOrder', output: { ok: true, order: order('waiting', 1_000) } } as never);
    expect(orderView(actor.getSnapshot()).phase).toBe('completed');
    actor.stop();
  });

  it('ignores updates about other orders and repeats', () => {
    const { actor } = liveActor();
    actor.send({ type: 'PRICES_FRESH' });
    actor.send({ type: 'SUBMIT', draft });
    actor.send({ type: 'xstate.done.actor.placeOrder', output: { ok: true, order: order('waiting', 1_000) } } as never);
    actor.send({ type: 'ORDER_UPDATE', order: { ...filled, id: 8 } });
    actor.send({ type: 'ORDER_UPDATE', order: order('waiting', 1_000) });
    expect(orderView(actor.getSnapshot()).phase).toBe('waiting');
    actor.send({ type: 'ORDER_UPDATE', order: order('cancelled', 11_000, { cancel_reason: 'price_band' }) });
    expect(orderView(actor.getSnapshot()).reasonKey).toBe('spot.cancelReason.price_band');
    actor.stop();
  });
});

describe('an order row: the machine started with an order the server has', () => {
  function rowActor(start: SpotOrder) {
    const cancels: unknown[] = [];
    const machine = spotOrderMachine.provide({
      actors: {
        cancelOrder: fromPromise<OrderCallResult, unknown>(({ input }) => {
          cancels.push(input);
          return new Promise(() => {});
        }) as never,
      },
    });
    const actor = createActor(machine, { input: { makeId: counter(), order: start } });
    actor.start();
    return { actor, cancels };
  }

  it('a resting order starts pending; cancel asks the server and ends cancelled on its answer', () => {
    const { actor, cancels } = rowActor(order('pending', 2_000));
    expect(orderView(actor.getSnapshot())).toMatchObject({ phase: 'pending', cancelEnabled: true, busy: false });
    actor.send({ type: 'CANCEL' });
    expect(orderView(actor.getSnapshot())).toMatchObject({ phase: 'cancelling', cancelEnabled: false, busy: true });
    expect(cancels).toEqual([{ id: 7 }]);
    actor.send({
      type: 'xstate.done.actor.cancelOrder',
      output: { ok: true, order: order('cancelled', 3_000, { cancel_reason: 'user' }) },
    } as never);
    expect(orderView(actor.getSnapshot())).toMatchObject({ phase: 'cancelled', reasonKey: 'spot.cancelReason.user' });
    actor.stop();
  });

  it('a cancel the server refuses (the order filled meanwhile) leaves it resting until the fill arrives', () => {
    const { actor } = rowActor(order('pending', 2_000));
    actor.send({ type: 'CANCEL' });
    actor.send({
      type: 'xstate.done.actor.cancelOrder',
      output: { ok: false, answered: true, message: 'The order can no longer be cancelled' },
    } as never);
    expect(orderView(actor.getSnapshot())).toMatchObject({
      phase: 'pending',
      error: 'The order can no longer be cancelled',
    });
    actor.send({ type: 'ORDER_UPDATE', order: { ...filled, updated_at: 4_000 } });
    expect(orderView(actor.getSnapshot()).phase).toBe('completed');
    actor.stop();
  });

  it('a waiting order starts waiting and follows the server to pending; cancel is offered once it rests', () => {
    const { actor } = rowActor(order('waiting', 1_000));
    expect(orderView(actor.getSnapshot())).toMatchObject({ phase: 'waiting', cancelEnabled: false });
    actor.send({ type: 'ORDER_UPDATE', order: order('pending', 2_000) });
    expect(orderView(actor.getSnapshot())).toMatchObject({ phase: 'pending', cancelEnabled: true });
    actor.stop();
  });
});
