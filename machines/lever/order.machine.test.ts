// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import type { LeverPosition, LeverStatus } from '../../protocol/lever';
import {
  type LeverCallResult,
  type LeverOrderEvent,
  type LeverOrderPhase,
  type LeverOrderSnapshot,
  leverOrderMachine,
  leverOrderView,
  NO_ANSWER,
  submitOrderWith,
} from './order.machine';
import {
  closedBy,
  done,
  draft,
  EVENTS,
  leverOrderWalks,
  liquidatedAt,
  MODEL_ID,
  type ModelEvent,
  nodeKey,
  position,
} from './order.model';

/**
 * Model-based: every shortest path and every simple path through the lever order machine (states serialised by
 * value, so the walk ends), replayed on a live actor whose calls the test answers, asserting at each step what the
 * user sees (leverOrderView: SPEC 4 status, status line, reason, which actions are on, busy, final) and that the live
 * actor is where the model is. Then the rules one at a time: retries keep their id, the stale gate, late news,
 * liquidation, cancellation, rows.
 */

type Offer = 'submit' | 'confirm' | 'cancel' | 'close' | 'reverse' | 'setStop' | 'addMargin';

/** What each state says, whatever path led there: its SPEC 4 status, the actions it offers while prices are fresh. */
const EXPECTED: Record<
  LeverOrderPhase,
  { status: LeverStatus | null; offers: Offer[]; busy: boolean; final: boolean }
> = {
  entering: { status: null, offers: ['submit'], busy: false, final: false },
  confirming: { status: null, offers: ['confirm'], busy: false, final: false },
  submitting: { status: null, offers: [], busy: true, final: false },
  verifying: { status: null, offers: [], busy: false, final: false },
  waiting: { status: 0, offers: ['cancel'], busy: false, final: false },
  pending: { status: 0, offers: ['cancel'], busy: false, final: false },
  cancelling: { status: 0, offers: [], busy: true, final: false },
  // The model's position is isolated, so adding margin is on.
  holding: { status: 1, offers: ['close', 'reverse', 'setStop', 'addMargin'], busy: false, final: false },
  confirmingClose: { status: 1, offers: ['confirm'], busy: false, final: false },
  closeRequested: { status: 1, offers: [], busy: true, final: false },
  confirmingReverse: { status: 1, offers: ['confirm'], busy: false, final: false },
  reverseRequested: { status: 1, offers: [], busy: true, final: false },
  settingStop: { status: 1, offers: [], busy: true, final: false },
  addingMargin: { status: 1, offers: [], busy: true, final: false },
  closing: { status: 2, offers: [], busy: false, final: false },
  closed: { status: 3, offers: ['submit'], busy: false, final: true },
  liquidated: { status: 3, offers: ['submit'], busy: false, final: true },
  cancelled: { status: 4, offers: ['submit'], busy: false, final: true },
};

const ERRORS = [
  NO_ANSWER,
  'Account not authenticated',
  'Insufficient balance',
  'This order can no longer be cancelled',
  'This position can no longer be closed',
  'The stop-loss must be above the liquidation price',
];

function assertView(snapshot: LeverOrderSnapshot): void {
  const value = snapshot.value as { order: LeverOrderPhase; prices: 'fresh' | 'stale' };
  const view = leverOrderView(snapshot);
  const expected = EXPECTED[value.order];
  const fresh = value.prices === 'fresh';
  expect(view.phase).toBe(value.order);
  expect(view.labelKey).toBe(`lever.phase.${value.order}`);
  expect(view.status).toBe(expected.status);
  expect(view.busy).toBe(expected.busy);
  expect(view.final).toBe(expected.final);
  expect(view.promptVerify).toBe(value.order === 'verifying');
  // Stale prices disable every action (DESIGN "Realtime"); nothing else about the order changes.
  const offered = (offer: Offer) => expected.offers.includes(offer) && fresh;
  expect(view.submitEnabled).toBe(offered('submit'));
  expect(view.confirmEnabled).toBe(offered('confirm'));
  const sheets: Partial<Record<LeverOrderPhase, string>> = {
    confirming: 'open',
    confirmingClose: 'close',
    confirmingReverse: 'reverse',
  };
  expect(view.reviewing).toBe(sheets[value.order] ?? null);
  if (value.order === 'confirming') expect(view.draft).not.toBeNull();
  expect(view.cancelEnabled).toBe(offered('cancel'));
  expect(view.closeEnabled).toBe(offered('close'));
  expect(view.reverseEnabled).toBe(offered('reverse'));
  expect(view.setStopEnabled).toBe(offered('setStop'));
  expect(view.addMarginEnabled).toBe(offered('addMargin'));
  expect(view.blockedByStalePrices).toBe(expected.offers.length > 0 && !fresh);
  // The server's status agrees with the state shown, wherever the machine has a position.
  if (expected.status !== null) expect(view.position?.status).toBe(expected.status);
  if (value.order === 'closed') expect(view.reasonKey).toMatch(/^lever\.closeReason\.(user|take_profit)$/);
  if (value.order === 'liquidated') {
    expect(view.reasonKey).toBe('lever.closeReason.liquidation');
    expect(view.position?.Liquidation_Time).toBe(6_950);
  }
  if (value.order === 'cancelled') expect(view.reasonKey).toMatch(/^lever\.cancelReason\.(user|no_tick)$/);
  if (!view.final) expect(view.reasonKey).toBeNull();
  if (view.error !== null) expect(ERRORS).toContain(view.error);
}

function counter(): () => string {
  let n = 0;
  return () => `req-${++n}`;
}

type Calls = Record<
  'submitOrder' | 'cancelOrder' | 'closePosition' | 'reversePosition' | 'setStops' | 'addMargin',
  unknown[]
>;

/** A live actor whose calls never settle by themselves (the test delivers their answers), recording their inputs. */
function liveActor(start?: LeverPosition, makeId: () => string = counter()) {
  const calls: Calls = {
    submitOrder: [],
    cancelOrder: [],
    closePosition: [],
    reversePosition: [],
    setStops: [],
    addMargin: [],
  };
  const recorder = (name: keyof Calls) =>
    fromPromise<LeverCallResult, unknown>(({ input }) => {
      calls[name].push(input);
      return new Promise(() => {});
    }) as never;
  const machine = leverOrderMachine.provide({
    actors: {
      submitOrder: submitOrderWith((request) => {
        calls.submitOrder.push(request);
        return new Promise(() => {});
      }),
      cancelOrder: recorder('cancelOrder'),
      closePosition: recorder('closePosition'),
      reversePosition: recorder('reversePosition'),
      setStops: recorder('setStops'),
      addMargin: recorder('addMargin'),
    },
  });
  const actor = createActor(machine, { input: { makeId, ...(start ? { position: start } : {}) } });
  actor.start();
  const send = (event: ModelEvent) => actor.send(event as LeverOrderEvent);
  const view = () => leverOrderView(actor.getSnapshot());
  return { actor, calls, send, view };
}

interface Path {
  state: LeverOrderSnapshot;
  steps: { event: { type: string }; state: LeverOrderSnapshot }[];
}

const describePath = (path: Path) =>
  `${path.steps.map((s) => s.event.type.replace('xstate.', '')).join(' → ') || '(start)'} ⇒ ${JSON.stringify(path.state.value)}`;

function replay(path: Path) {
  const { actor, send } = liveActor(undefined, MODEL_ID);
  assertView(actor.getSnapshot());
  for (const step of path.steps) {
    // Done and error events stand for what the calls would deliver; all reach the actor the same way.
    send(step.event as ModelEvent);
    expect(actor.getSnapshot().value).toEqual(step.state.value);
    assertView(actor.getSnapshot());
  }
  actor.stop();
}

describe('lever order machine (model-based)', () => {
  const shortest = getShortestPaths(leverOrderMachine, leverOrderWalks.shortest) as unknown as Path[];
  const simple = getSimplePaths(leverOrderMachine, leverOrderWalks.lifecycle) as unknown as Path[];

  it('reaches every state of the lifecycle, in both price states', () => {
    const reached = new Set(shortest.map((p) => JSON.stringify(p.state.value)));
    for (const phase of Object.keys(EXPECTED)) {
      for (const prices of ['fresh', 'stale']) expect(reached).toContain(JSON.stringify({ order: phase, prices }));
    }
    expect(reached.size).toBe(Object.keys(EXPECTED).length * 2);
    // And each state with every phase of the position it can hold there.
    const phasesIn = (order: string) =>
      new Set(
        shortest
          .map((p) => JSON.parse(nodeKey(p.state)))
          .filter((k) => k.order === order)
          .map((k) => k.phase),
      );
    expect(phasesIn('cancelling')).toEqual(new Set(['waiting', 'pending']));
    expect(phasesIn('addingMargin')).toEqual(new Set(['holding']));
  });

  it.each(shortest.map((p) => [describePath(p), p] as const))('shortest path: %s', (_, path) => {
    replay(path);
  });

  it('walks every simple path of the lifecycle', () => {
    expect(simple.length).toBeGreaterThan(shortest.length);
    for (const path of simple) replay(path);
  }, 60_000);
});

describe('request ids', () => {
  const ids = (inputs: unknown[]) => inputs.map((c) => (c as { request_id: string }).request_id);

  it('a submission retried after no answer keeps its id; an answer ends it; a changed draft is new', () => {
    const { calls, send, view } = liveActor();
    send(EVENTS.fresh);
    send(EVENTS.submit);
    send(EVENTS.lost);
    expect(view()).toMatchObject({ phase: 'entering', error: NO_ANSWER, submitEnabled: true });
    send(EVENTS.submit);
    send(done('submitOrder', { ok: false, message: NO_ANSWER, answered: false }));
    send(EVENTS.submit);
    expect(ids(calls.submitOrder)).toEqual(['req-1', 'req-1', 'req-1']);
    // Refused by the server (definite): the next submission is a new one even with the same draft.
    send(EVENTS.refused);
    expect(view()).toMatchObject({ phase: 'entering', error: 'Insufficient balance', errorField: 'lots' });
    send(EVENTS.submit);
    // A changed draft while an attempt is kept is another order.
    send(EVENTS.lost);
    send({ type: 'SUBMIT', draft: { ...draft, lots: '3' } });
    expect(ids(calls.submitOrder).slice(3)).toEqual(['req-2', 'req-3']);
  });

  it('a reconnect while the submission waits sends it again under the same id', () => {
    const { calls, send, view } = liveActor();
    send(EVENTS.fresh);
    send(EVENTS.submit);
    send({ type: 'RECONNECT' });
    expect(calls.submitOrder).toEqual([
      { ...draft, request_id: 'req-1' },
      { ...draft, request_id: 'req-1' },
    ]);
    expect(view().phase).toBe('submitting');
  });

  it('a margin top-up retried after no answer keeps its id; an answered one does not', () => {
    const { calls, send, view } = liveActor(position('holding', 4_000));
    send(EVENTS.fresh);
    send(EVENTS.addMargin);
    expect(calls.addMargin).toEqual([{ id: 7, amount: '50', request_id: 'req-1' }]);
    send(EVENTS.marginLost);
    expect(view()).toMatchObject({ phase: 'holding', error: NO_ANSWER });
    send(EVENTS.addMargin);
    send(EVENTS.marginRefused);
    expect(view()).toMatchObject({ phase: 'holding', error: 'Insufficient balance', errorField: 'amount' });
    send(EVENTS.addMargin);
    send(EVENTS.marginAdded);
    expect(view()).toMatchObject({ phase: 'holding', error: null });
    expect(view().position?.additional_margin).toBe('50');
    send(EVENTS.addMargin);
    expect(ids(calls.addMargin)).toEqual(['req-1', 'req-1', 'req-2', 'req-3']);
  });
});

describe('closing part of a position (RULES "Partial close")', () => {
  const ids = (inputs: unknown[]) => inputs.map((c) => (c as { request_id: string }).request_id);
  it('confirms a close of some lots, keeps its id on a retry after no answer, and a new id for other lots', () => {
    const { calls, send, view } = liveActor(position('holding', 4_000));
    send(EVENTS.fresh);
    send(EVENTS.reviewClose);
    expect(view()).toMatchObject({ phase: 'confirmingClose', reviewing: 'close', confirmEnabled: true });
    expect(calls.closePosition).toEqual([]);
    send({ type: 'CONFIRM', lots: 1 });
    expect(calls.closePosition).toEqual([{ id: 7, lots: 1, request_id: 'req-1' }]);
    send(EVENTS.closeLost);
    expect(view()).toMatchObject({ phase: 'holding', error: NO_ANSWER });
    send({ type: 'CLOSE', lots: 1 });
    send(EVENTS.closeRefused);
    send({ type: 'CLOSE', lots: 1 });
    send(EVENTS.closeLost);
    send({ type: 'CLOSE' });
    expect(calls.closePosition.map((c) => (c as { lots: number | null }).lots)).toEqual([1, 1, 1, null]);
    expect(ids(calls.closePosition)).toEqual(['req-1', 'req-1', 'req-2', 'req-3']);
  });

  it('a close asked again after an unanswered part did close is a new request, not the old id', () => {
    const { calls, send } = liveActor(position('holding', 4_000));
    send(EVENTS.fresh);
    send({ type: 'CLOSE', lots: 1 });
    send(EVENTS.closeLost);
    // The lost close did apply: its part closed at the next tick and the position holds one lot.
    send({ type: 'POSITION', position: position('holding', 6_000, { lots: 1 }) });
    send({ type: 'CLOSE', lots: 1 });
    expect(ids(calls.closePosition)).toEqual(['req-1', 'req-2']);
  });

  it('holds the rest again after the split tick, but never takes a whole close back', () => {
    const { send, view } = liveActor(position('holding', 4_000));
    send(EVENTS.fresh);
    send({ type: 'CLOSE', lots: 1 });
    send(done('closePosition', { ok: true, position: position('closing', 5_000, { close_lots: 1 }) }));
    expect(view().phase).toBe('closing');
    // The part closed at its tick; the position holds its other lot.
    send({ type: 'POSITION', position: position('holding', 6_000, { lots: 1, close_lots: null }) });
    expect(view()).toMatchObject({ phase: 'holding', closeEnabled: true });
    expect(view().position?.lots).toBe(1);
    // A whole close waiting for its tick is never moved back by a copy that says holding.
    send({ type: 'CLOSE' });
    send(done('closePosition', { ok: true, position: position('closing', 7_000, { lots: 1, close_lots: null }) }));
    send({ type: 'POSITION', position: position('holding', 8_000, { lots: 1 }) });
    expect(view().phase).toBe('closing');
  });
});

describe('reversing a position (RULES "Reverse")', () => {
  const ids = (inputs: unknown[]) => inputs.map((c) => (c as { request_id: string }).request_id);
  it('sends nothing before its sheet is confirmed, keeps its id on a retry after no answer, then follows the close', () => {
    const { calls, send, view } = liveActor(position('holding', 4_000));
    send(EVENTS.reviewReverse);
    // Stale prices: no sheet.
    expect(view()).toMatchObject({ phase: 'holding', reverseEnabled: false });
    send(EVENTS.fresh);
    send(EVENTS.reviewReverse);
    expect(view()).toMatchObject({ phase: 'confirmingReverse', reviewing: 'reverse', confirmEnabled: true });
    send(EVENTS.back);
    expect(view().phase).toBe('holding');
    send(EVENTS.reviewReverse);
    send(EVENTS.confirm);
    expect(view()).toMatchObject({ phase: 'reverseRequested', busy: true });
    expect(calls.reversePosition).toEqual([{ id: 7, request_id: 'req-1' }]);
    send(EVENTS.reverseLost);
    expect(view()).toMatchObject({ phase: 'holding', error: NO_ANSWER });
    send(EVENTS.reviewReverse);
    send(EVENTS.confirm);
    send(EVENTS.reverseRefused);
    send(EVENTS.reviewReverse);
    send(EVENTS.confirm);
    expect(ids(calls.reversePosition)).toEqual(['req-1', 'req-1', 'req-2']);
    expect(calls.closePosition).toEqual([]);
    send(EVENTS.reverseAccepted);
    expect(view()).toMatchObject({ phase: 'closing', status: 2 });
    expect(view().position?.reverse).toBe(true);
    send(EVENTS.closedByUser);
    expect(view()).toMatchObject({ phase: 'closed', reasonKey: 'lever.closeReason.user' });
  });
});

describe('the stale gate', () => {
  it('refuses close, set stop and add margin while prices are stale, and allows them once fresh', () => {
    const { calls, send, view } = liveActor(position('holding', 4_000));
    expect(view()).toMatchObject({ phase: 'holding', closeEnabled: false, blockedByStalePrices: true });
    send(EVENTS.close);
    send(EVENTS.setStop);
    send(EVENTS.addMargin);
    expect(view().phase).toBe('holding');
    expect([calls.closePosition, calls.setStops, calls.addMargin]).toEqual([[], [], []]);
    send(EVENTS.fresh);
    expect(view()).toMatchObject({ closeEnabled: true, setStopEnabled: true, addMarginEnabled: true });
    send(EVENTS.close);
    expect(view()).toMatchObject({ phase: 'closeRequested', busy: true, status: 1 });
    expect(calls.closePosition).toEqual([{ id: 7, lots: null, request_id: 'req-1' }]);
  });

  it('refuses cancel and a new submission while prices are stale', () => {
    const row = liveActor(position('pending', 2_000));
    row.send(EVENTS.cancel);
    expect(row.view()).toMatchObject({ phase: 'pending', cancelEnabled: false, blockedByStalePrices: true });
    expect(row.calls.cancelOrder).toEqual([]);
    const ticket = liveActor();
    ticket.send(EVENTS.submit);
    expect(ticket.view()).toMatchObject({ phase: 'entering', blockedByStalePrices: true });
    expect(ticket.calls.submitOrder).toEqual([]);
  });

  it('going stale does not stop a call already in flight', () => {
    const { send, view } = liveActor(position('holding', 4_000));
    send(EVENTS.fresh);
    send(EVENTS.close);
    send(EVENTS.stale);
    send(EVENTS.closeAccepted);
    expect(view()).toMatchObject({ phase: 'closing', status: 2, blockedByStalePrices: false });
  });
});

describe('server updates', () => {
  it('ignore an older update, a repeat, another position and a copy from an earlier phase', () => {
    const { send, view } = liveActor(position('holding', 4_000));
    send(EVENTS.rests);
    send({ type: 'POSITION', position: position('holding', 4_000, { floating_profit_or_loss: '9' }) });
    send({ type: 'POSITION', position: { ...closedBy('user'), id: 8 } });
    expect(view()).toMatchObject({ phase: 'holding', status: 1 });
    expect(view().position?.floating_profit_or_loss).toBe('0');
    send(EVENTS.closeStarted);
    // Stamped later but back in the lifecycle: not news (a position never reopens).
    send({ type: 'POSITION', position: position('holding', 6_500) });
    expect(view()).toMatchObject({ phase: 'closing', status: 2 });
    send(EVENTS.closedByUser);
    send(EVENTS.liquidation);
    expect(view()).toMatchObject({ phase: 'closed', status: 3, reasonKey: 'lever.closeReason.user', final: true });
  });

  it('take a newer update in the same phase (a new mark) without leaving the state', () => {
    const { send, view } = liveActor(position('holding', 4_000));
    send(EVENTS.markMoved);
    expect(view()).toMatchObject({ phase: 'holding' });
    expect(view().position?.floating_profit_or_loss).toBe('4');
  });

  it('liquidation reaches the liquidated state with its reason and time', () => {
    const { send, view } = liveActor(position('holding', 4_000));
    send(EVENTS.liquidation);
    expect(view()).toMatchObject({
      phase: 'liquidated',
      status: 3,
      final: true,
      reasonKey: 'lever.closeReason.liquidation',
      labelKey: 'lever.phase.liquidated',
    });
    expect(view().position).toMatchObject({ close_reason: 'liquidation', Liquidation_Time: 6_950, insurance: '0.2' });
  });

  it('a liquidation that overtakes a margin top-up ends it there; the late answer changes nothing', () => {
    const { send, view } = liveActor(position('holding', 4_000));
    send(EVENTS.fresh);
    send(EVENTS.addMargin);
    send(EVENTS.liquidation);
    expect(view().phase).toBe('liquidated');
    send(EVENTS.marginAdded);
    expect(view()).toMatchObject({ phase: 'liquidated', reasonKey: 'lever.closeReason.liquidation' });
  });

  it('a take-profit that fires while a close is asked for ends the position closed, by take profit', () => {
    const { send, view } = liveActor(position('holding', 4_000));
    send(EVENTS.fresh);
    send(EVENTS.close);
    send(EVENTS.takeProfit);
    send(EVENTS.closeAccepted);
    expect(view()).toMatchObject({ phase: 'closed', reasonKey: 'lever.closeReason.take_profit' });
  });

  it('news of the submission by its request id overtakes the answer, and the older answer does not undo it', () => {
    const { send, view } = liveActor();
    send(EVENTS.fresh);
    send(EVENTS.submit);
    send(EVENTS.opened);
    expect(view()).toMatchObject({ phase: 'holding', status: 1 });
    send(EVENTS.accepted);
    expect(view().phase).toBe('holding');
  });
});

describe('actions on a position', () => {
  it('cancel from pending asks the server and ends cancelled (4) on its answer', () => {
    const { calls, send, view } = liveActor(position('pending', 2_000));
    send(EVENTS.fresh);
    expect(view()).toMatchObject({ phase: 'pending', status: 0, cancelEnabled: true });
    send(EVENTS.cancel);
    expect(view()).toMatchObject({ phase: 'cancelling', status: 0, busy: true, cancelEnabled: false });
    expect(calls.cancelOrder).toEqual([{ id: 7 }]);
    send(EVENTS.cancelled);
    expect(view()).toMatchObject({ phase: 'cancelled', status: 4, final: true, reasonKey: 'lever.cancelReason.user' });
  });

  it('a refused cancel shows the error where the order is; a fill that arrives meanwhile opens it', () => {
    const { send, view } = liveActor(position('pending', 2_000));
    send(EVENTS.fresh);
    send(EVENTS.cancel);
    send(EVENTS.cancelRefused);
    expect(view()).toMatchObject({ phase: 'pending', error: 'This order can no longer be cancelled' });
    send(EVENTS.cancel);
    expect(view().error).toBeNull();
    send(EVENTS.opened);
    expect(view()).toMatchObject({ phase: 'holding', status: 1 });
  });

  it('set stop sends the new prices and returns to holding with them; a lost answer shows ERROR', () => {
    const { calls, send, view } = liveActor(position('holding', 4_000));
    send(EVENTS.fresh);
    send(EVENTS.setStop);
    expect(calls.setStops).toEqual([{ id: 7, take_profit: '52000', stop_loss: '48000' }]);
    send(EVENTS.stopLost);
    expect(view()).toMatchObject({ phase: 'holding', error: NO_ANSWER });
    send(EVENTS.setStop);
    send(EVENTS.stopSet);
    expect(view()).toMatchObject({ phase: 'holding', error: null });
    expect(view().position).toMatchObject({ profit_take_price: '52000', stop_loss_price: '48000' });
  });

  it('a refused close shows the error and leaves the position holding', () => {
    const { send, view } = liveActor(position('holding', 4_000));
    send(EVENTS.fresh);
    send(EVENTS.close);
    send(EVENTS.closeRefused);
    expect(view()).toMatchObject({
      phase: 'holding',
      closeEnabled: true,
      error: 'This position can no longer be closed',
    });
  });

  it('adding margin is for isolated positions only', () => {
    const { calls, send, view } = liveActor(position('holding', 4_000, { margin_mode: 'cross' }));
    send(EVENTS.fresh);
    expect(view()).toMatchObject({ closeEnabled: true, addMarginEnabled: false });
    send(EVENTS.addMargin);
    expect(view().phase).toBe('holding');
    expect(calls.addMargin).toEqual([]);
  });
});

describe('a list row: the machine started with a position the server has', () => {
  const rows: [LeverOrderPhase, LeverStatus, LeverPosition][] = [
    ['waiting', 0, position('waiting', 1_000)],
    ['pending', 0, position('pending', 2_000)],
    ['holding', 1, position('holding', 4_000)],
    ['closing', 2, position('closing', 6_000)],
    ['closed', 3, closedBy('stop_loss')],
    ['liquidated', 3, liquidatedAt()],
    ['cancelled', 4, position('cancelled', 3_000, { cancel_reason: 'insufficient_margin' })],
  ];

  it.each(rows)('starts in %s (status %s)', (phase, status, start) => {
    const { view } = liveActor(start);
    expect(view()).toMatchObject({ phase, status, busy: false });
  });

  it('a finished row names its reason', () => {
    expect(liveActor(closedBy('stop_loss')).view().reasonKey).toBe('lever.closeReason.stop_loss');
    const noMargin = position('cancelled', 3_000, { cancel_reason: 'insufficient_margin' });
    expect(liveActor(noMargin).view().reasonKey).toBe('lever.cancelReason.insufficient_margin');
  });
});

describe('the ticket', () => {
  it('lets go of a placed order (its row follows it) but not while a call about it is in flight', () => {
    const { send, view } = liveActor(position('holding', 4_000));
    send(EVENTS.fresh);
    send(EVENTS.close);
    send(EVENTS.newOrder);
    expect(view().phase).toBe('closeRequested');
    send(EVENTS.closeAccepted);
    send(EVENTS.newOrder);
    expect(view()).toMatchObject({ phase: 'entering', status: null, position: null, submitEnabled: true });
  });
});
