import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import { type LeverPhase, type LeverPosition, type LeverStatus, STATUS_OF_PHASE } from '../../protocol/lever';
import {
  type LeverCallResult,
  type LeverOrderDraft,
  type LeverOrderEvent,
  type LeverOrderPhase,
  type LeverOrderSnapshot,
  leverOrderMachine,
  leverOrderView,
  NO_ANSWER,
} from './order.machine';

/**
 * Model-based: every shortest path and every simple path through the lever order machine (states serialised by
 * value, so the walk ends), replayed on a live actor whose calls the test answers, asserting at each step what the
 * user sees (leverOrderView: SPEC 4 status, status line, reason, which actions are on, busy, final) and that the live
 * actor is where the model is. Then the rules one at a time: retries keep their id, the stale gate, late news,
 * liquidation, cancellation, rows.
 */

const draft: LeverOrderDraft = {
  symbol: 'BTC',
  side: 'long',
  type: 'limit',
  margin_mode: 'isolated',
  lots: '2',
  leverage: '10',
  price: '50000',
  account: 'simulator',
};

const tick = (seq: number, price: string) => ({ symbol: 'BTC', seq, ts: seq * 100, price });

/** A position as the server would send it in `phase`; the model's server times follow the lifecycle. */
const position = (phase: LeverPhase, updatedAt: number, extra: Partial<LeverPosition> = {}): LeverPosition => {
  const opened = phase === 'holding' || phase === 'closing' || phase === 'closed';
  return {
    id: 7,
    order_no: 'L000007',
    symbol: 'BTC',
    direction: 'long',
    type: 'limit',
    margin_mode: 'isolated',
    account_type: 'simulator',
    status: STATUS_OF_PHASE[phase],
    phase,
    lots: 2,
    quantity: '0.02',
    contract_size: '0.01',
    leverage: 10,
    mmr: '0.005',
    fee_rate: '0.0005',
    limit_price: '50000',
    entry_price: opened ? '50000' : null,
    close_offset_price: null,
    profit_take_price: null,
    stop_loss_price: null,
    initial_margin: opened ? '100' : null,
    additional_margin: '0',
    amount: opened ? '1000' : null,
    commission: opened ? '0.5' : '0',
    Liquidation_Price: opened ? '45226.13' : null,
    Liquidation_Time: null,
    floating_profit_or_loss: phase === 'holding' ? '0' : null,
    unrealized_pnl_percent: phase === 'holding' ? '0' : null,
    realized_pnl: null,
    realized_pnl_percent: null,
    total_profit_or_loss: null,
    insurance: null,
    close_reason: null,
    cancel_reason: null,
    entry: opened ? tick(40, '50000') : null,
    exit: null,
    mark: opened ? tick(41, '50000') : null,
    open_position_time: opened ? 4_000 : null,
    time_to_close_position: null,
    // The model's ids come from a counter; updates match by position id once the submission answered.
    request_id: 'req-1',
    created_at: 1_000,
    updated_at: updatedAt,
    ...extra,
  };
};

const closedBy = (reason: LeverPosition['close_reason'], updatedAt = 7_000, extra: Partial<LeverPosition> = {}) =>
  position('closed', updatedAt, {
    close_reason: reason,
    exit: tick(60, '51000'),
    close_offset_price: '51000',
    realized_pnl: '20',
    total_profit_or_loss: '19',
    time_to_close_position: 6_900,
    ...extra,
  });

const liquidatedAt = (updatedAt = 7_000) =>
  closedBy('liquidation', updatedAt, {
    exit: tick(61, '45200'),
    close_offset_price: '45200',
    realized_pnl: '-96',
    total_profit_or_loss: '-96.5',
    insurance: '0.2',
    Liquidation_Time: 6_950,
  });

const done = (actor: string, output: LeverCallResult) => ({ type: `xstate.done.actor.${actor}`, output }) as const;
const broke = (actor: string) => ({ type: `xstate.error.actor.${actor}`, error: new Error('offline') }) as const;
const refused = (message: string, field?: string) =>
  ({ ok: false, message, answered: true, ...(field ? { field } : {}) }) as const;

/**
 * The events the model may take. Done and error events of the invoked calls stand for the server's answers; the
 * server times follow the lifecycle (waiting 1 s, pending 2 s, cancelled 3 s, holding 4 s, …), so a copy from an
 * earlier phase is late news wherever the walk is.
 */
const EVENTS = {
  submit: { type: 'SUBMIT', draft },
  accepted: done('submitOrder', { ok: true, position: position('waiting', 1_000) }),
  refused: done('submitOrder', refused('Insufficient balance', 'lots')),
  verify: done('submitOrder', { ...refused('Account not authenticated'), verifyRequired: true }),
  lost: broke('submitOrder'),
  dismiss: { type: 'DISMISS' },
  rests: { type: 'POSITION', position: position('pending', 2_000) },
  noTick: { type: 'POSITION', position: position('cancelled', 3_000, { cancel_reason: 'no_tick' }) },
  opened: { type: 'POSITION', position: position('holding', 4_000) },
  markMoved: { type: 'POSITION', position: position('holding', 5_000, { floating_profit_or_loss: '4' }) },
  closeStarted: { type: 'POSITION', position: position('closing', 6_000) },
  closedByUser: { type: 'POSITION', position: closedBy('user') },
  takeProfit: { type: 'POSITION', position: closedBy('take_profit') },
  liquidation: { type: 'POSITION', position: liquidatedAt() },
  cancel: { type: 'CANCEL' },
  cancelled: done('cancelOrder', { ok: true, position: position('cancelled', 3_000, { cancel_reason: 'user' }) }),
  cancelRefused: done('cancelOrder', refused('This order can no longer be cancelled')),
  cancelLost: broke('cancelOrder'),
  close: { type: 'CLOSE' },
  closeAccepted: done('closePosition', { ok: true, position: position('closing', 6_000) }),
  closeRefused: done('closePosition', refused('This position can no longer be closed')),
  closeLost: broke('closePosition'),
  setStop: { type: 'SET_STOP', stops: { take_profit: '52000', stop_loss: '48000' } },
  stopSet: done('setStops', {
    ok: true,
    position: position('holding', 5_000, { profit_take_price: '52000', stop_loss_price: '48000' }),
  }),
  stopRefused: done('setStops', refused('The stop-loss must be above the liquidation price', 'stop_loss')),
  stopLost: broke('setStops'),
  addMargin: { type: 'ADD_MARGIN', amount: '50' },
  marginAdded: done('addMargin', {
    ok: true,
    position: position('holding', 5_000, { additional_margin: '50', Liquidation_Price: '42964.82' }),
  }),
  marginRefused: done('addMargin', refused('Insufficient balance', 'amount')),
  marginLost: broke('addMargin'),
  newOrder: { type: 'NEW_ORDER' },
  stale: { type: 'PRICES_STALE' },
  fresh: { type: 'PRICES_FRESH' },
} as const;

type ModelEvent = LeverOrderEvent | (typeof EVENTS)[keyof typeof EVENTS];

type Offer = 'submit' | 'cancel' | 'close' | 'setStop' | 'addMargin';

/** What each state says, whatever path led there: its SPEC 4 status, the actions it offers while prices are fresh. */
const EXPECTED: Record<
  LeverOrderPhase,
  { status: LeverStatus | null; offers: Offer[]; busy: boolean; final: boolean }
> = {
  entering: { status: null, offers: ['submit'], busy: false, final: false },
  submitting: { status: null, offers: [], busy: true, final: false },
  verifying: { status: null, offers: [], busy: false, final: false },
  waiting: { status: 0, offers: ['cancel'], busy: false, final: false },
  pending: { status: 0, offers: ['cancel'], busy: false, final: false },
  cancelling: { status: 0, offers: [], busy: true, final: false },
  // The model's position is isolated, so adding margin is on.
  holding: { status: 1, offers: ['close', 'setStop', 'addMargin'], busy: false, final: false },
  closeRequested: { status: 1, offers: [], busy: true, final: false },
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
  expect(view.cancelEnabled).toBe(offered('cancel'));
  expect(view.closeEnabled).toBe(offered('close'));
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

/**
 * The model's request id is always `req-1` (the positions it sends carry it): the walk and each replay then agree on
 * which updates are news of the submission. Ids across retries are tested on their own below.
 */
const MODEL_ID = () => 'req-1';

/**
 * A node of the walk: the state and the phase of the position held. The phase decides where an answer or a failure
 * goes (cancelling returns to waiting or pending), so two nodes with one state value but different phases must not
 * be merged, or a path would be stitched from steps that do not follow each other. Both are finite, so the walk ends.
 */
const nodeKey = (snapshot: LeverOrderSnapshot) =>
  JSON.stringify({ ...(snapshot.value as object), phase: snapshot.context.position?.phase ?? null });

// createTestModel refuses machines that invoke; the path generators walk the same graph without that check.
const traversal = {
  input: { makeId: MODEL_ID },
  events: Object.values(EVENTS) as unknown as ModelEvent[],
  serializeState: nodeKey,
} as never;

/**
 * The simple paths walk the lifecycle with prices going fresh once and staying so: with the gate toggling at every
 * step they run to hundreds of thousands. The gate is walked by the shortest paths (every node in both price states)
 * and by the focused tests below.
 */
const lifecycle = {
  ...(traversal as object),
  events: Object.entries(EVENTS)
    .filter(([name]) => name !== 'stale')
    .map(([, event]) => event),
} as never;

type Calls = Record<'submitOrder' | 'cancelOrder' | 'closePosition' | 'setStops' | 'addMargin', unknown[]>;

/** A live actor whose calls never settle by themselves (the test delivers their answers), recording their inputs. */
function liveActor(start?: LeverPosition, makeId: () => string = counter()) {
  const calls: Calls = { submitOrder: [], cancelOrder: [], closePosition: [], setStops: [], addMargin: [] };
  const recorder = (name: keyof Calls) =>
    fromPromise<LeverCallResult, unknown>(({ input }) => {
      calls[name].push(input);
      return new Promise(() => {});
    }) as never;
  const machine = leverOrderMachine.provide({
    actors: {
      submitOrder: recorder('submitOrder'),
      cancelOrder: recorder('cancelOrder'),
      closePosition: recorder('closePosition'),
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
  const shortest = getShortestPaths(leverOrderMachine, traversal) as unknown as Path[];
  const simple = getSimplePaths(leverOrderMachine, lifecycle) as unknown as Path[];

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
    expect(calls.closePosition).toEqual([{ id: 7 }]);
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
