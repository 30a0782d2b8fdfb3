// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { LeverAccount } from '../../../protocol/lever';
import {
  type CloseAllAnswer,
  type CloseAllEvent,
  type CloseAllInput,
  type CloseAllPhase,
  type CloseAllSnapshot,
  closeAllView,
  leverCloseAllMachine,
  NO_ANSWER,
} from './closeAll.machine';
import {
  answered,
  closeAllWalks,
  closingTwo,
  EVENTS,
  type ModelEvent,
  nodeKey,
  REFUSAL,
  START,
} from './closeAll.model';

/**
 * Model-based: every shortest path through the close-all machine, replayed on a live actor whose call the test
 * answers, asserting at each step what the user sees (closeAllView: sheet, which actions are on, busy) and that the
 * live actor is where the model is. Then the rules one at a time: success, refusal, no answer, back, the stale gate,
 * nothing holding, the call aborted on stop.
 */

/** What each state offers while prices are fresh and something holds. */
const EXPECTED: Record<CloseAllPhase, { offers: ('open' | 'confirm')[]; sheet: boolean; busy: boolean }> = {
  idle: { offers: ['open'], sheet: false, busy: false },
  reviewing: { offers: ['confirm'], sheet: true, busy: false },
  sending: { offers: [], sheet: true, busy: true },
  done: { offers: ['open'], sheet: false, busy: false },
};

function assertView(snapshot: CloseAllSnapshot): void {
  const value = snapshot.value as { close: CloseAllPhase; prices: 'fresh' | 'stale' };
  const view = closeAllView(snapshot);
  const expected = EXPECTED[value.close];
  const fresh = value.prices === 'fresh';
  const holds = snapshot.context.holding > 0;
  expect(view.phase).toBe(value.close);
  expect(view.sheetOpen).toBe(expected.sheet);
  expect(view.busy).toBe(expected.busy);
  // Nothing to close is never offered, and stale prices turn off what is (DESIGN "Realtime").
  expect(view.openEnabled).toBe(expected.offers.includes('open') && holds && fresh);
  expect(view.confirmEnabled).toBe(expected.offers.includes('confirm') && holds && fresh);
  expect(view.blockedByStalePrices).toBe(expected.offers.length > 0 && holds && !fresh);
  // The sheet never stays up over nothing to close, unless the call is already out.
  if (value.close === 'reviewing') expect(holds).toBe(true);
  if (value.close === 'done') expect(view.closed).toBe(2);
  if (view.error !== null) expect([REFUSAL, NO_ANSWER]).toContain(view.error);
}

/** A live actor whose call never settles by itself (the test delivers its answer), recording its inputs and signals. */
function liveActor(input: CloseAllInput = START) {
  const calls: { book: LeverAccount }[] = [];
  const signals: AbortSignal[] = [];
  const machine = leverCloseAllMachine.provide({
    actors: {
      closeAll: fromPromise<CloseAllAnswer, { book: LeverAccount }>(({ input: call, signal }) => {
        calls.push(call);
        signals.push(signal);
        return new Promise(() => {});
      }),
    },
  });
  const actor = createActor(machine, { input });
  const announced: number[] = [];
  actor.on('closed', (e) => announced.push(e.count));
  actor.start();
  const send = (event: ModelEvent) => actor.send(event as CloseAllEvent);
  const view = () => closeAllView(actor.getSnapshot());
  return { actor, calls, signals, announced, send, view };
}

interface Path {
  state: CloseAllSnapshot;
  steps: { event: { type: string }; state: CloseAllSnapshot }[];
}

const describePath = (path: Path) =>
  `${path.steps.map((s) => s.event.type.replace('xstate.', '')).join(' → ') || '(start)'} ⇒ ${nodeKey(path.state)}`;

describe('lever close-all machine (model-based)', () => {
  const shortest = getShortestPaths(leverCloseAllMachine, closeAllWalks.shortest) as unknown as Path[];

  it('reaches every state in both price states, and the resting states with and without positions holding', () => {
    const reached = new Set(shortest.map((p) => nodeKey(p.state)));
    for (const close of Object.keys(EXPECTED)) {
      for (const prices of ['fresh', 'stale']) {
        const holdings = close === 'reviewing' ? [true] : [true, false];
        for (const holds of holdings) expect(reached).toContain(JSON.stringify({ close, prices, holds }));
      }
    }
    // Every combination but the sheet over nothing to close.
    expect(reached.size).toBe(Object.keys(EXPECTED).length * 4 - 2);
  });

  it.each(shortest.map((p) => [describePath(p), p] as const))('shortest path: %s', (_, path) => {
    const { actor, send } = liveActor();
    assertView(actor.getSnapshot());
    for (const step of path.steps) {
      send(step.event as ModelEvent);
      expect(nodeKey(actor.getSnapshot())).toBe(nodeKey(step.state));
      assertView(actor.getSnapshot());
    }
    actor.stop();
  });
});

describe('closing them all', () => {
  it('asks on a sheet, sends the book once confirmed, and announces how many went into closing', () => {
    const { calls, announced, send, view } = liveActor();
    send(EVENTS.fresh);
    expect(view()).toMatchObject({ phase: 'idle', openEnabled: true, sheetOpen: false, holding: 2 });
    send(EVENTS.open);
    expect(view()).toMatchObject({ phase: 'reviewing', sheetOpen: true, confirmEnabled: true });
    expect(calls).toEqual([]);
    send(EVENTS.confirm);
    expect(view()).toMatchObject({ phase: 'sending', busy: true, sheetOpen: true, confirmEnabled: false });
    expect(calls).toEqual([{ book: 'simulator' }]);
    send(EVENTS.closed);
    expect(view()).toMatchObject({ phase: 'done', sheetOpen: false, closed: 2, error: null });
    expect(announced).toEqual([2]);
  });

  it('sends the book it was started for', () => {
    const { calls, send } = liveActor({ book: 'real', holding: 1 });
    send(EVENTS.fresh);
    send(EVENTS.open);
    send(EVENTS.confirm);
    expect(calls).toEqual([{ book: 'real' }]);
  });

  it('announces an answer that closed none (all closed meanwhile) as none', () => {
    const { announced, send, view } = liveActor();
    send(EVENTS.fresh);
    send(EVENTS.open);
    send(EVENTS.confirm);
    send(answered({ ok: true, positions: [] }));
    expect(view()).toMatchObject({ phase: 'done', closed: 0 });
    expect(announced).toEqual([0]);
  });

  it('opens again from done for what holds by then, the last count kept until the next answer', () => {
    const { calls, announced, send, view } = liveActor();
    send(EVENTS.fresh);
    send(EVENTS.open);
    send(EVENTS.confirm);
    send(EVENTS.closed);
    send({ type: 'HOLDING', count: 1 });
    send(EVENTS.open);
    expect(view()).toMatchObject({ phase: 'reviewing', holding: 1, closed: 2 });
    send(EVENTS.confirm);
    send(answered({ ok: true, positions: closingTwo.slice(0, 1) }));
    expect(view()).toMatchObject({ phase: 'done', closed: 1 });
    expect(calls).toHaveLength(2);
    expect(announced).toEqual([2, 1]);
  });
});

describe('when it fails', () => {
  it('a refusal keeps the sheet up with its message; confirming again clears it and sends again', () => {
    const { calls, announced, send, view } = liveActor();
    send(EVENTS.fresh);
    send(EVENTS.open);
    send(EVENTS.confirm);
    send(EVENTS.refused);
    expect(view()).toMatchObject({ phase: 'reviewing', sheetOpen: true, error: REFUSAL, confirmEnabled: true });
    send(EVENTS.confirm);
    expect(view()).toMatchObject({ phase: 'sending', error: null });
    expect(calls).toHaveLength(2);
    expect(announced).toEqual([]);
  });

  it('no answer (the call broke, or answered nothing) shows ERROR on the sheet', () => {
    const { send, view } = liveActor();
    send(EVENTS.fresh);
    send(EVENTS.open);
    send(EVENTS.confirm);
    send(EVENTS.lost);
    expect(view()).toMatchObject({ phase: 'reviewing', error: NO_ANSWER });
    send(EVENTS.confirm);
    send(answered({ ok: false, message: '', answered: false }));
    expect(view()).toMatchObject({ phase: 'reviewing', error: NO_ANSWER });
  });

  it('a no-answer refusal with a message of its own (offline) shows that message', () => {
    const { send, view } = liveActor();
    send(EVENTS.fresh);
    send(EVENTS.open);
    send(EVENTS.confirm);
    send(answered({ ok: false, message: 'No connection', answered: false }));
    expect(view()).toMatchObject({ phase: 'reviewing', error: 'No connection' });
  });

  it('back from a refusal closes the sheet; opening it again starts without the old message', () => {
    const { send, view } = liveActor();
    send(EVENTS.fresh);
    send(EVENTS.open);
    send(EVENTS.confirm);
    send(EVENTS.refused);
    send(EVENTS.back);
    expect(view()).toMatchObject({ phase: 'idle', sheetOpen: false });
    send(EVENTS.open);
    expect(view()).toMatchObject({ phase: 'reviewing', error: null });
  });
});

describe('back, the stale gate and nothing to close', () => {
  it('back leaves the sheet without sending anything', () => {
    const { calls, send, view } = liveActor();
    send(EVENTS.fresh);
    send(EVENTS.open);
    send(EVENTS.back);
    expect(view()).toMatchObject({ phase: 'idle', sheetOpen: false, openEnabled: true });
    expect(calls).toEqual([]);
  });

  it('stale prices refuse OPEN and CONFIRM, and allow them once fresh', () => {
    const { calls, send, view } = liveActor();
    expect(view()).toMatchObject({ phase: 'idle', openEnabled: false, blockedByStalePrices: true });
    send(EVENTS.open);
    expect(view().phase).toBe('idle');
    send(EVENTS.fresh);
    send(EVENTS.open);
    send(EVENTS.stale);
    expect(view()).toMatchObject({ phase: 'reviewing', confirmEnabled: false, blockedByStalePrices: true });
    send(EVENTS.confirm);
    expect(view().phase).toBe('reviewing');
    expect(calls).toEqual([]);
    send(EVENTS.fresh);
    send(EVENTS.confirm);
    expect(calls).toEqual([{ book: 'simulator' }]);
  });

  it('going stale does not stop a close-all already sent', () => {
    const { signals, send, view } = liveActor();
    send(EVENTS.fresh);
    send(EVENTS.open);
    send(EVENTS.confirm);
    send(EVENTS.stale);
    expect(signals[0]?.aborted).toBe(false);
    send(EVENTS.closed);
    expect(view()).toMatchObject({ phase: 'done', closed: 2, openEnabled: false, blockedByStalePrices: true });
  });

  it('cannot open with nothing holding, and the sheet goes when nothing holds any more', () => {
    const { send, view } = liveActor({ book: 'simulator', holding: 0 });
    send(EVENTS.fresh);
    expect(view()).toMatchObject({ openEnabled: false, blockedByStalePrices: false });
    send(EVENTS.open);
    expect(view().phase).toBe('idle');
    send(EVENTS.twoHolding);
    send(EVENTS.open);
    expect(view().phase).toBe('reviewing');
    send(EVENTS.noneHolding);
    expect(view()).toMatchObject({ phase: 'idle', sheetOpen: false, openEnabled: false });
  });

  it('nothing holding any more while the call is out waits for its answer', () => {
    const { send, view } = liveActor();
    send(EVENTS.fresh);
    send(EVENTS.open);
    send(EVENTS.confirm);
    // The positions going into closing reach the list before the answer, often.
    send(EVENTS.noneHolding);
    expect(view()).toMatchObject({ phase: 'sending', busy: true });
    send(EVENTS.closed);
    expect(view()).toMatchObject({ phase: 'done', closed: 2, openEnabled: false });
  });
});

describe('stopping', () => {
  it('aborts the call in flight (the page left)', () => {
    const { actor, signals, send } = liveActor();
    send(EVENTS.fresh);
    send(EVENTS.open);
    send(EVENTS.confirm);
    expect(signals[0]?.aborted).toBe(false);
    actor.stop();
    expect(signals[0]?.aborted).toBe(true);
  });
});
