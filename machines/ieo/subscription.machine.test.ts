import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import type { IeoOrder } from '../../protocol/ieo';
import {
  ieoSubscriptionMachine,
  MAX_TIMER_MS,
  NO_ANSWER,
  type PayCallResult,
  RECHECK_MS,
  type SubscriptionEvent,
  type SubscriptionSnapshot,
  type SubscriptionStep,
  stepOf,
  subscriptionView,
} from './subscription.machine';
import {
  ALLOT,
  DAY,
  fetched,
  LISTING,
  MIN,
  order,
  PAY_UNTIL,
  payAnswer,
  SERVER_NOW,
  UNLOCK,
  ieoSubscriptionWalks as walks,
} from './subscription.model';

/**
 * Model-based: every shortest path and every simple path through the subscription machine (states serialised by
 * value, so the walk ends), replayed on a live actor whose calls the test answers and whose timers the test delivers,
 * asserting at each step what the user sees (subscriptionView: badge, SPEC status, Pay button, the time waited for)
 * and that the live actor is where the model is. Then the timers on a driven server clock (fake timers, a device
 * clock minutes off), the payment, and the far unlock time.
 */

/** What each state shows, whatever path led there. */
const EXPECTED: Record<
  SubscriptionStep,
  {
    status: 1 | 2 | 3 | 4 | 5 | 6;
    label: string;
    canPay: boolean;
    busy: boolean;
    next: string | null;
    finished: boolean;
  }
> = {
  waitingForAllotment: {
    status: 1,
    label: 'subscribed',
    canPay: false,
    busy: false,
    next: 'allotment',
    finished: false,
  },
  allotting: { status: 1, label: 'processing', canPay: false, busy: false, next: null, finished: false },
  allotmentFailed: { status: 2, label: 'failed', canPay: false, busy: false, next: null, finished: true },
  allotted: { status: 3, label: 'allotted', canPay: true, busy: false, next: 'payDeadline', finished: false },
  paying: { status: 3, label: 'paying', canPay: false, busy: true, next: null, finished: false },
  lapsing: { status: 3, label: 'processing', canPay: false, busy: false, next: null, finished: false },
  lapsed: { status: 3, label: 'fail', canPay: false, busy: false, next: null, finished: true },
  paid: { status: 4, label: 'paid', canPay: false, busy: false, next: 'listing', finished: false },
  listing: { status: 4, label: 'processing', canPay: false, busy: false, next: null, finished: false },
  locked: { status: 5, label: 'locked', canPay: false, busy: false, next: 'unlock', finished: false },
  unlocking: { status: 5, label: 'processing', canPay: false, busy: false, next: null, finished: false },
  unlocked: { status: 6, label: 'success', canPay: false, busy: false, next: null, finished: true },
};

/** The time each waiting state counts down to. */
const NEXT_AT: Record<string, number> = { allotment: ALLOT, payDeadline: PAY_UNTIL, listing: LISTING, unlock: UNLOCK };

function assertView(snapshot: SubscriptionSnapshot): void {
  const step = snapshot.value as SubscriptionStep;
  const view = subscriptionView(snapshot, SERVER_NOW);
  const expected = EXPECTED[step];
  expect(view.step).toBe(step);
  expect(view.ipoStatus).toBe(expected.status);
  expect(view.label).toBe(expected.label);
  expect(view.labelKey).toBe(`ieo.label.${expected.label}`);
  expect(view.processing).toBe(expected.label === 'processing');
  expect(view.canPay).toBe(expected.canPay);
  expect(view.busy).toBe(expected.busy);
  expect(view.finished).toBe(expected.finished);
  expect(view.next?.step ?? null).toBe(expected.next);
  if (expected.next)
    expect(view.next).toMatchObject({ at: NEXT_AT[expected.next], msLeft: NEXT_AT[expected.next]! - SERVER_NOW });
  // The SPEC status on the badge agrees with the server's own number wherever the server has confirmed the step.
  if (!view.processing && step !== 'paying') expect(view.order.ipo_status).toBe(expected.status);
  if (step === 'allotted' && snapshot.context.error) expect(['Insufficient balance', NO_ANSWER]).toContain(view.error);
}

interface Calls {
  pays: unknown[];
  fetches: unknown[];
}

/** A live actor whose calls never settle by themselves (the test answers them). */
function liveActor(input: { order: IeoOrder; localNow: () => number; offset: number }) {
  const calls: Calls = { pays: [], fetches: [] };
  const machine = ieoSubscriptionMachine.provide({
    actors: {
      payOrder: fromPromise<PayCallResult, { id: number }>(({ input }) => {
        calls.pays.push(input);
        return new Promise(() => {});
      }) as never,
      fetchOrder: fromPromise<IeoOrder | false, { id: number }>(({ input }) => {
        calls.fetches.push(input);
        return new Promise(() => {});
      }) as never,
    },
  });
  const actor = createActor(machine, { input });
  actor.start();
  return { actor, calls };
}

interface Path {
  state: SubscriptionSnapshot;
  steps: { event: { type: string }; state: SubscriptionSnapshot }[];
}

const eventName = (e: { type: string; order?: IeoOrder; output?: unknown }) => {
  if (e.type === 'ORDER') return `ORDER(${e.order?.phase})`;
  if (e.type === 'xstate.done.actor.fetchOrder')
    return `fetched(${(e.output as IeoOrder | false) && (e.output as IeoOrder).phase})`;
  if (e.type === 'xstate.done.actor.payOrder') return (e.output as PayCallResult).ok ? 'paid' : 'refused';
  return e.type.replace('xstate.', '').replace(/\.ieoSubscription\.\w+$/, '');
};

const describePath = (path: Path) =>
  `${path.steps.map((s) => eventName(s.event)).join(' → ') || '(start)'} ⇒ ${JSON.stringify(path.state.value)}`;

function replay(path: Path) {
  // The model's timers are its events: fake timers keep the real ones from firing on their own.
  vi.useFakeTimers();
  const { actor } = liveActor({ order: order('subscribed'), localNow: () => SERVER_NOW, offset: 0 });
  assertView(actor.getSnapshot());
  for (const step of path.steps) {
    actor.send(step.event as SubscriptionEvent);
    expect(actor.getSnapshot().value).toEqual(step.state.value);
    assertView(actor.getSnapshot());
  }
  actor.stop();
  vi.useRealTimers();
}

describe('IEO subscription machine (model-based)', () => {
  // One walk (subscription.model.ts), generated two ways: its shortest paths and all its simple paths.
  const shortest = getShortestPaths(ieoSubscriptionMachine, walks.shortest) as unknown as Path[];
  const simple = getSimplePaths(ieoSubscriptionMachine, walks.shortest) as unknown as Path[];

  it('reaches every step of the subscription', () => {
    const reached = new Set(shortest.map((p) => p.state.value));
    for (const step of Object.keys(EXPECTED)) expect(reached).toContain(step);
  });

  it.each(shortest.map((p) => [describePath(p), p] as const))('shortest path: %s', (_, path) => {
    replay(path);
  });

  // Every simple path replayed on a live actor: seconds of CPU, more on a busy 2-core machine.
  it('walks every simple path', () => {
    expect(simple.length).toBeGreaterThan(shortest.length);
    for (const path of simple) replay(path);
  }, 60_000);
});

describe('where a subscription the server sent starts', () => {
  // Phase × "is its next step due?" on the server's clock.
  it.each([
    ['subscribed', ALLOT - 1, 'waitingForAllotment'],
    ['subscribed', ALLOT, 'allotting'],
    ['failed', ALLOT + MIN, 'allotmentFailed'],
    ['allotted', PAY_UNTIL - 1, 'allotted'],
    ['allotted', PAY_UNTIL, 'lapsing'],
    ['lapsed', PAY_UNTIL + MIN, 'lapsed'],
    ['paid', LISTING - 1, 'paid'],
    ['paid', LISTING, 'listing'],
    ['locked', UNLOCK - 1, 'locked'],
    ['locked', UNLOCK, 'unlocking'],
    ['unlocked', UNLOCK + MIN, 'unlocked'],
  ] as const)('%s at %d ⇒ %s', (phase, now, step) => {
    expect(stepOf(order(phase), now)).toBe(step);
    vi.useFakeTimers();
    const { actor } = liveActor({ order: order(phase), localNow: () => now, offset: 0 });
    expect(actor.getSnapshot().value).toBe(step);
    actor.stop();
    vi.useRealTimers();
  });
});

describe('the timers run on the server clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * A device clock 7 minutes behind the server: the machine is told the offset, so it moves to "processing" when the
   * allotment time passes on the server's clock, not 7 minutes later.
   */
  it('follows a whole subscription: allotment, payment, listing, unlock', async () => {
    vi.useFakeTimers({ now: SERVER_NOW - 7 * MIN });
    const offset = 7 * MIN;
    const { actor, calls } = liveActor({ order: order('subscribed'), localNow: () => Date.now(), offset });
    const view = () => subscriptionView(actor.getSnapshot(), Date.now() + offset);
    expect(view()).toMatchObject({ step: 'waitingForAllotment', next: { step: 'allotment', msLeft: 10 * MIN } });

    vi.advanceTimersByTime(10 * MIN - 1);
    expect(view().step).toBe('waitingForAllotment');
    vi.advanceTimersByTime(1);
    expect(view()).toMatchObject({ step: 'allotting', label: 'processing', next: null });
    // While processing, the order is asked for at once and every few seconds until the server has news.
    expect(calls.fetches).toEqual([{ id: 7 }]);
    vi.advanceTimersByTime(RECHECK_MS);
    expect(calls.fetches).toHaveLength(2);

    actor.send({ type: 'ORDER', order: order('allotted') });
    expect(view()).toMatchObject({
      step: 'allotted',
      canPay: true,
      next: { step: 'payDeadline', msLeft: 10 * MIN - RECHECK_MS },
    });
    vi.advanceTimersByTime(RECHECK_MS * 3);
    expect(calls.fetches).toHaveLength(2);

    actor.send({ type: 'PAY' });
    expect(view()).toMatchObject({ step: 'paying', label: 'paying', busy: true });
    expect(calls.pays).toEqual([{ id: 7 }]);
    actor.send({ type: 'ORDER', order: order('paid') });
    expect(view()).toMatchObject({ step: 'paid', next: { step: 'listing' } });

    vi.advanceTimersByTime(LISTING - (Date.now() + offset));
    expect(view().step).toBe('listing');
    actor.send({ type: 'ORDER', order: order('locked') });
    expect(view()).toMatchObject({ step: 'locked', ipoStatus: 5, next: { step: 'unlock' } });
    // A late copy from before the listing changes nothing.
    actor.send({ type: 'ORDER', order: order('paid') });
    expect(view().step).toBe('locked');

    vi.advanceTimersByTime(UNLOCK - (Date.now() + offset));
    expect(view().step).toBe('unlocking');
    actor.send({ type: 'ORDER', order: order('unlocked') });
    expect(view()).toMatchObject({ step: 'unlocked', label: 'success', ipoStatus: 6, finished: true });
    actor.stop();
  });

  it('sets its timer again when the estimate of the server clock moves', () => {
    vi.useFakeTimers({ now: SERVER_NOW });
    const { actor } = liveActor({ order: order('subscribed'), localNow: () => Date.now(), offset: 0 });
    vi.advanceTimersByTime(5 * MIN);
    // The server turns out to be 4 minutes ahead: the allotment is 1 minute away, not 5.
    actor.send({ type: 'CLOCK', offset: 4 * MIN });
    vi.advanceTimersByTime(MIN - 1);
    expect(actor.getSnapshot().value).toBe('waitingForAllotment');
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toBe('allotting');
    actor.stop();
  });

  it('waits for a far unlock time a day at a time (a browser timer cannot wait 40 days)', () => {
    const far = SERVER_NOW + 40 * DAY;
    vi.useFakeTimers({ now: SERVER_NOW });
    const { actor } = liveActor({ order: order('locked', { lock_date: far }), localNow: () => Date.now(), offset: 0 });
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(actor.getSnapshot().value).toBe('locked');
    vi.advanceTimersByTime(39 * DAY - MAX_TIMER_MS - 1);
    expect(actor.getSnapshot().value).toBe('locked');
    vi.advanceTimersByTime(DAY);
    expect(actor.getSnapshot().value).toBe('locked');
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toBe('unlocking');
    actor.stop();
  });

  it('lets an unpaid allotment lapse: processing when the window ends, "fail" when the server confirms', () => {
    vi.useFakeTimers({ now: PAY_UNTIL - MIN });
    const { actor, calls } = liveActor({ order: order('allotted'), localNow: () => Date.now(), offset: 0 });
    vi.advanceTimersByTime(MIN);
    expect(subscriptionView(actor.getSnapshot(), Date.now())).toMatchObject({ step: 'lapsing', canPay: false });
    actor.send({ type: 'PAY' });
    expect(calls.pays).toEqual([]);
    actor.send({ type: 'ORDER', order: order('lapsed') });
    expect(subscriptionView(actor.getSnapshot(), Date.now())).toMatchObject({
      step: 'lapsed',
      label: 'fail',
      ipoStatus: 3,
      finished: true,
    });
    actor.stop();
  });
});

describe('paying', () => {
  it('a refusal or no answer goes back to the Pay button with the message; a retry pays the same order', () => {
    vi.useFakeTimers();
    const { actor, calls } = liveActor({ order: order('allotted'), localNow: () => SERVER_NOW, offset: 0 });
    const view = () => subscriptionView(actor.getSnapshot(), SERVER_NOW);
    actor.send({ type: 'PAY' });
    actor.send(payAnswer({ ok: false, message: 'Insufficient balance', field: 'id', answered: true }) as never);
    expect(view()).toMatchObject({ step: 'allotted', canPay: true, error: 'Insufficient balance' });
    actor.send({ type: 'PAY' });
    expect(view().error).toBeNull();
    actor.send({ type: 'xstate.error.actor.payOrder', error: new Error('offline') } as never);
    expect(view()).toMatchObject({ step: 'allotted', error: NO_ANSWER });
    actor.send({ type: 'PAY' });
    actor.send(payAnswer({ ok: true, order: order('paid') }) as never);
    expect(view()).toMatchObject({ step: 'paid', ipoStatus: 4, error: null });
    expect(view().order.success_pay).toBe('61.728395');
    expect(calls.pays).toEqual([{ id: 7 }, { id: 7 }, { id: 7 }]);
    actor.stop();
    vi.useRealTimers();
  });

  it('an update that overtakes the answer counts, and the older answer does not undo it', () => {
    vi.useFakeTimers();
    const { actor } = liveActor({ order: order('allotted'), localNow: () => LISTING + 1, offset: 0 });
    // Listing has passed meanwhile: the paid order goes straight to "processing" until the server lists it.
    actor.send({ type: 'ORDER', order: order('locked') });
    expect(actor.getSnapshot().value).toBe('locked');
    actor.send({ type: 'ORDER', order: order('paid') });
    expect(actor.getSnapshot().value).toBe('locked');
    actor.stop();
    vi.useRealTimers();
  });

  it('ignores copies of other subscriptions', () => {
    vi.useFakeTimers();
    const { actor } = liveActor({ order: order('subscribed'), localNow: () => SERVER_NOW, offset: 0 });
    actor.send({ type: 'ORDER', order: order('allotted', { id: 8 }) });
    actor.send(fetched(order('allotted', { id: 8 })) as never);
    expect(actor.getSnapshot().value).toBe('waitingForAllotment');
    actor.stop();
    vi.useRealTimers();
  });
});
