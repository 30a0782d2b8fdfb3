import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import type { C2cOrder, C2cStatus } from '../../protocol/c2c';
import {
  type C2cAction,
  type C2cCallResult,
  type C2cOrderEvent,
  type C2cOrderSnapshot,
  type C2cOrderStep,
  c2cOrderMachine,
  c2cOrderView,
  labelOf,
  NO_ANSWER,
  RECHECK_MS,
  stepOf,
} from './order.machine';
import {
  c2cOrderWalks,
  done,
  lost,
  MIN,
  ORDERS,
  order,
  PAY_UNTIL,
  type Role,
  refused,
  SERVER_NOW,
} from './order.model';

/**
 * Model-based: every shortest path and every simple path through the order machine, for the buyer and for the
 * merchant (states serialised by value, so the walk ends), replayed on a live actor whose calls the test answers and
 * whose timers the test delivers, asserting at each step what the viewer sees (c2cOrderView: badge, status, the
 * actions offered to this role, the countdown) and that the live actor is where the model is. Then the payment
 * window on a driven server clock: a device clock that is wrong changes nothing, the window's end shows "expiring"
 * and never cancels by itself, and the server's expiry ends it.
 */

const NONE: Record<C2cAction, boolean> = { pay: false, cancel: false, release: false, appeal: false };

/** What each state shows the buyer and the merchant, whatever path led there. */
const EXPECTED: Record<
  C2cOrderStep,
  {
    status: C2cStatus;
    label: string;
    buyer: Record<C2cAction, boolean>;
    merchant: Record<C2cAction, boolean>;
    busy: C2cAction | null;
    countdown: boolean;
    finished: boolean;
  }
> = {
  awaitingPayment: {
    status: 1,
    label: 'paying',
    buyer: { ...NONE, pay: true, cancel: true },
    merchant: NONE,
    busy: null,
    countdown: true,
    finished: false,
  },
  markingPaid: {
    status: 1,
    label: 'paying',
    buyer: NONE,
    merchant: NONE,
    busy: 'pay',
    countdown: true,
    finished: false,
  },
  cancelling: {
    status: 1,
    label: 'paying',
    buyer: NONE,
    merchant: NONE,
    busy: 'cancel',
    countdown: true,
    finished: false,
  },
  // The window is over: no payment any more, but the buyer may still cancel until the server's expiry has run.
  expiring: {
    status: 1,
    label: 'expiring',
    buyer: { ...NONE, cancel: true },
    merchant: NONE,
    busy: null,
    countdown: false,
    finished: false,
  },

  paid: {
    status: 2,
    label: 'paid',
    buyer: { ...NONE, appeal: true },
    merchant: { ...NONE, release: true, appeal: true },
    busy: null,
    countdown: false,
    finished: false,
  },
  releasing: {
    status: 2,
    label: 'paid',
    buyer: NONE,
    merchant: NONE,
    busy: 'release',
    countdown: false,
    finished: false,
  },
  appealing: {
    status: 2,
    label: 'paid',
    buyer: NONE,
    merchant: NONE,
    busy: 'appeal',
    countdown: false,
    finished: false,
  },
  appeal: { status: 4, label: 'appeal', buyer: NONE, merchant: NONE, busy: null, countdown: false, finished: false },
  completed: {
    status: 3,
    label: 'completed',
    buyer: NONE,
    merchant: NONE,
    busy: null,
    countdown: false,
    finished: true,
  },
  cancelled: {
    status: 5,
    label: 'cancelled',
    buyer: NONE,
    merchant: NONE,
    busy: null,
    countdown: false,
    finished: true,
  },
};

function assertView(snapshot: C2cOrderSnapshot, role: Role): void {
  const step = snapshot.value as C2cOrderStep;
  const view = c2cOrderView(snapshot, SERVER_NOW);
  const expected = EXPECTED[step];
  expect(view.step).toBe(step);
  expect(view.status).toBe(expected.status);
  expect(view.label).toBe(expected.label);
  expect(view.labelKey).toBe(`c2c.status.${expected.label}`);
  expect(view.actions).toEqual(expected[role]);
  expect(view.busy).toBe(expected.busy);
  expect(view.finished).toBe(expected.finished);
  expect(view.countdown).toEqual(expected.countdown ? { at: PAY_UNTIL, msLeft: PAY_UNTIL - SERVER_NOW } : null);
  // The badge of a step the server sent agrees with the label the lists compute without a machine.
  if (view.busy === null && step !== 'expiring') expect(labelOf(view.order, SERVER_NOW)).toBe(expected.label);
  if (view.error !== null) expect(view.busy).toBeNull();
}

interface Calls {
  pays: unknown[];
  cancels: unknown[];
  releases: unknown[];
  appeals: unknown[];
  fetches: unknown[];
}

/** A live actor whose calls never settle by themselves (the test answers them). */
function liveActor(input: { order: C2cOrder; now: () => number }) {
  const calls: Calls = { pays: [], cancels: [], releases: [], appeals: [], fetches: [] };
  const pending = <T>(list: unknown[]) =>
    fromPromise<T, { id: number; reason?: string }>(({ input }) => {
      list.push(input);
      return new Promise(() => {});
    }) as never;
  const machine = c2cOrderMachine.provide({
    actors: {
      payOrder: pending<C2cCallResult>(calls.pays),
      cancelOrder: pending<C2cCallResult>(calls.cancels),
      releaseOrder: pending<C2cCallResult>(calls.releases),
      appealOrder: pending<C2cCallResult>(calls.appeals),
      fetchOrder: pending<C2cOrder | false>(calls.fetches),
    },
  });
  const actor = createActor(machine, { input });
  actor.start();
  return { actor, calls };
}

interface Path {
  state: C2cOrderSnapshot;
  steps: { event: { type: string }; state: C2cOrderSnapshot }[];
}

const eventName = (e: { type: string; order?: C2cOrder; output?: unknown }) => {
  if (e.type === 'ORDER') return `ORDER(${e.order?.status})`;
  if (e.type.startsWith('xstate.done.actor.')) {
    const out = e.output as C2cCallResult | C2cOrder | false;
    const name = e.type.replace('xstate.done.actor.', '');
    if (out && 'ok' in out) return `${name}:${out.ok ? 'ok' : 'refused'}`;
    return `${name}(${out ? out.status : false})`;
  }
  return e.type.replace('xstate.', '').replace(/\.c2cOrder\.\w+$/, '');
};

const describePath = (path: Path) =>
  `${path.steps.map((s) => eventName(s.event)).join(' → ') || '(start)'} ⇒ ${JSON.stringify(path.state.value)}`;

function replay(path: Path, role: Role) {
  // The model's timers are its events: fake timers keep the real ones from firing on their own.
  vi.useFakeTimers();
  const { actor } = liveActor({ order: order(1, { role }), now: () => SERVER_NOW });
  assertView(actor.getSnapshot(), role);
  for (const step of path.steps) {
    actor.send(step.event as C2cOrderEvent);
    expect(actor.getSnapshot().value).toEqual(step.state.value);
    assertView(actor.getSnapshot(), role);
  }
  actor.stop();
  vi.useRealTimers();
}

describe.each(['buyer', 'merchant'] as const)('C2C order machine as the %s (model-based)', (role) => {
  const shortest = getShortestPaths(c2cOrderMachine, c2cOrderWalks[role]) as unknown as Path[];
  const simple = getSimplePaths(c2cOrderMachine, c2cOrderWalks[role]) as unknown as Path[];

  it('reaches every step this role can reach, and no action of the other role', () => {
    const reached = new Set(shortest.map((p) => p.state.value as string));
    const own = role === 'buyer' ? ['markingPaid', 'cancelling'] : ['releasing'];
    const others = role === 'buyer' ? ['releasing'] : ['markingPaid', 'cancelling'];
    for (const step of Object.keys(EXPECTED).filter((s) => !others.includes(s))) expect(reached).toContain(step);
    for (const step of own) expect(reached).toContain(step);
    for (const step of others) expect(reached).not.toContain(step);
  });

  it.each(shortest.map((p) => [describePath(p), p] as const))('shortest path: %s', (_, path) => {
    replay(path, role);
  });

  // Every simple path replayed on a live actor: seconds of CPU, more on a busy 2-core machine.
  it('walks every simple path', () => {
    expect(simple.length).toBeGreaterThan(shortest.length);
    for (const path of simple) replay(path, role);
  }, 60_000);
});

describe('where an order the server sent starts', () => {
  it.each([
    [1, PAY_UNTIL - 1, 'awaitingPayment'],
    [1, PAY_UNTIL, 'expiring'],
    [2, PAY_UNTIL + MIN, 'paid'],
    [4, PAY_UNTIL + MIN, 'appeal'],
    [3, PAY_UNTIL + MIN, 'completed'],
    [5, PAY_UNTIL + MIN, 'cancelled'],
  ] as const)('status %d at %d ⇒ %s', (status, now, step) => {
    expect(stepOf(order(status), now)).toBe(step);
    vi.useFakeTimers();
    const { actor } = liveActor({ order: order(status), now: () => now });
    expect(actor.getSnapshot().value).toBe(step);
    actor.stop();
    vi.useRealTimers();
  });
});

describe('the payment window runs on the server clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts down to pay_until on server time, whatever the device clock says', () => {
    // The device clock is an hour behind; the server-time source is device time plus the offset the app estimated.
    vi.useFakeTimers({ now: SERVER_NOW - 60 * MIN });
    const offset = 60 * MIN;
    const serverTime = () => Date.now() + offset;
    const { actor, calls } = liveActor({ order: order(1), now: serverTime });
    const view = () => c2cOrderView(actor.getSnapshot(), serverTime());
    expect(view()).toMatchObject({ step: 'awaitingPayment', countdown: { at: PAY_UNTIL, msLeft: 20 * MIN } });

    vi.advanceTimersByTime(20 * MIN - 1);
    expect(view()).toMatchObject({ step: 'awaitingPayment', countdown: { msLeft: 1 } });
    vi.advanceTimersByTime(1);
    // The window has ended: "expiring", no payment any more (the buyer may still cancel), and the order is asked for
    // until the server expires it.
    expect(view()).toMatchObject({
      step: 'expiring',
      label: 'expiring',
      countdown: null,
      actions: { ...NONE, cancel: true },
    });
    expect(calls.fetches).toEqual([{ id: 7 }]);
    vi.advanceTimersByTime(RECHECK_MS);
    expect(calls.fetches).toHaveLength(2);
    // It never cancels by itself: no cancel call, however long the server takes.
    vi.advanceTimersByTime(10 * RECHECK_MS);
    expect(calls.cancels).toEqual([]);
    expect(view().step).toBe('expiring');

    actor.send({ type: 'ORDER', order: ORDERS.expired });
    expect(view()).toMatchObject({ step: 'cancelled', label: 'cancelled', status: 5, finished: true });
    actor.stop();
  });

  it('sets its timer again when the estimate of the server clock moves', () => {
    vi.useFakeTimers({ now: SERVER_NOW });
    let offset = 0;
    const { actor } = liveActor({ order: order(1), now: () => Date.now() + offset });
    vi.advanceTimersByTime(5 * MIN);
    // The server turns out to be 10 minutes ahead: 5 minutes of the window are left, not 15.
    offset = 10 * MIN;
    actor.send({ type: 'CLOCK' });
    vi.advanceTimersByTime(5 * MIN - 1);
    expect(actor.getSnapshot().value).toBe('awaitingPayment');
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toBe('expiring');
    actor.stop();
  });

  it('a payment that won the race with the expiry comes back as paid', () => {
    vi.useFakeTimers({ now: PAY_UNTIL });
    const { actor } = liveActor({ order: order(1), now: () => Date.now() });
    expect(actor.getSnapshot().value).toBe('expiring');
    actor.send(done('fetchOrder', ORDERS.paying) as never);
    expect(actor.getSnapshot().value).toBe('expiring');
    actor.send(done('fetchOrder', ORDERS.paid) as never);
    expect(actor.getSnapshot().value).toBe('paid');
    actor.stop();
  });

  it('offers no "paid" once the window has ended, even before its timer fired', () => {
    let now = PAY_UNTIL - 1;
    vi.useFakeTimers();
    const { actor, calls } = liveActor({ order: order(1), now: () => now });
    now = PAY_UNTIL;
    actor.send({ type: 'PAY' });
    expect(calls.pays).toEqual([]);
    expect(actor.getSnapshot().value).toBe('awaitingPayment');
    actor.stop();
  });
});

describe('actions', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the buyer marks it paid: a refusal or no answer goes back with the message; a retry pays the same order', () => {
    vi.useFakeTimers();
    const { actor, calls } = liveActor({ order: order(1), now: () => SERVER_NOW });
    const view = () => c2cOrderView(actor.getSnapshot(), SERVER_NOW);
    actor.send({ type: 'PAY' });
    expect(view()).toMatchObject({ step: 'markingPaid', busy: 'pay' });
    actor.send(done('payOrder', refused('Too many requests')) as never);
    expect(view()).toMatchObject({ step: 'awaitingPayment', error: 'Too many requests', actions: { pay: true } });
    actor.send({ type: 'PAY' });
    expect(view().error).toBeNull();
    actor.send(lost('payOrder') as never);
    expect(view()).toMatchObject({ step: 'awaitingPayment', error: NO_ANSWER });
    actor.send({ type: 'PAY' });
    actor.send(done('payOrder', { ok: true, order: ORDERS.paid }) as never);
    expect(view()).toMatchObject({ step: 'paid', status: 2, error: null, actions: { appeal: true, release: false } });
    expect(calls.pays).toEqual([
      { id: 7, reason: '' },
      { id: 7, reason: '' },
      { id: 7, reason: '' },
    ]);
    actor.stop();
  });

  it('the merchant releases a paid order; the buyer cannot', () => {
    vi.useFakeTimers();
    const buyer = liveActor({ order: order(2), now: () => SERVER_NOW });
    buyer.actor.send({ type: 'RELEASE' });
    expect(buyer.calls.releases).toEqual([]);
    buyer.actor.stop();

    const merchant = liveActor({ order: order(2, { role: 'merchant' }), now: () => SERVER_NOW });
    merchant.actor.send({ type: 'PAY' });
    merchant.actor.send({ type: 'CANCEL' });
    expect(merchant.actor.getSnapshot().value).toBe('paid');
    merchant.actor.send({ type: 'RELEASE' });
    expect(merchant.calls.releases).toEqual([{ id: 7, reason: '' }]);
    merchant.actor.send(done('releaseOrder', { ok: true, order: { ...ORDERS.completed, role: 'merchant' } }) as never);
    expect(c2cOrderView(merchant.actor.getSnapshot(), SERVER_NOW)).toMatchObject({ step: 'completed', finished: true });
    merchant.actor.stop();
  });

  it('an appeal needs a reason, which goes with the call; the decision arrives from the server', () => {
    vi.useFakeTimers();
    const { actor, calls } = liveActor({ order: order(2), now: () => SERVER_NOW });
    actor.send({ type: 'APPEAL', reason: '  ' });
    expect(actor.getSnapshot().value).toBe('paid');
    actor.send({ type: 'APPEAL', reason: ' The merchant does not answer ' });
    expect(calls.appeals).toEqual([{ id: 7, reason: 'The merchant does not answer' }]);
    actor.send(done('appealOrder', { ok: true, order: ORDERS.appeal }) as never);
    expect(c2cOrderView(actor.getSnapshot(), SERVER_NOW)).toMatchObject({ step: 'appeal', status: 4, actions: NONE });
    actor.send({ type: 'ORDER', order: ORDERS.decidedCancel });
    const view = c2cOrderView(actor.getSnapshot(), SERVER_NOW);
    expect(view).toMatchObject({ step: 'cancelled', finished: true });
    expect(view.order.appeal?.decision).toBe('cancel');
    actor.stop();
  });

  it('an update that overtakes the answer counts, and late copies do not undo it', () => {
    vi.useFakeTimers();
    const { actor } = liveActor({ order: order(1), now: () => SERVER_NOW });
    actor.send({ type: 'PAY' });
    actor.send({ type: 'ORDER', order: ORDERS.paid });
    expect(actor.getSnapshot().value).toBe('paid');
    actor.send({ type: 'ORDER', order: ORDERS.paying });
    expect(actor.getSnapshot().value).toBe('paid');
    actor.send({ type: 'ORDER', order: ORDERS.appeal });
    actor.send({ type: 'ORDER', order: ORDERS.paid });
    expect(actor.getSnapshot().value).toBe('appeal');
    actor.stop();
  });

  it('ignores copies of other orders', () => {
    vi.useFakeTimers();
    const { actor } = liveActor({ order: order(1), now: () => SERVER_NOW });
    actor.send({ type: 'ORDER', order: { ...ORDERS.paid, id: 8 } });
    expect(actor.getSnapshot().value).toBe('awaitingPayment');
    actor.stop();
  });
});
