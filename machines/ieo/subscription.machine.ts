import { EMPTY } from 'rxjs';
import { assign, fromEventObservable, fromPromise, type SnapshotFrom, setup } from 'xstate';
import type { IeoOrder } from '../../protocol/ieo';
import { isNewerIeoOrder, newerIeoOrder } from '../../streams/ieo/news';
import {
  type IeoLabel,
  type IeoTimedStep,
  STEP_FACTS,
  SUBSCRIPTION_STEPS,
  type SubscriptionStep,
  stepOf,
  TIMED_STEP,
  type TimedField,
} from './steps';

export {
  type IeoLabel,
  type IeoTimedStep,
  labelOf,
  SUBSCRIPTION_STEPS,
  type SubscriptionStep,
  stepOf,
} from './steps';

/**
 * One IEO subscription's way through SPEC 4's statuses (RULES "IEO", protocol/ieo.ts), as the user sees it:
 *
 *   waitingForAllotment (1) ─ allotment time ─▶ allotting (1, processing) ─ server ─▶ allotmentFailed (2, final)
 *                                                                                  └▶ allotted (3)
 *   allotted (3) ─ PAY ─▶ paying ─ paid ─▶ paid (4)          (refused or no answer: back to allotted, with the message)
 *   allotted (3) ─ end of the payment window ─▶ lapsing (3, processing) ─ server ─▶ lapsed (3, "fail", final)
 *   paid (4) ─ listing time ─▶ listing (4, processing) ─ server ─▶ locked (5)
 *   locked (5) ─ unlock time ─▶ unlocking (5, processing) ─ server ─▶ unlocked (6, "success", final)
 *
 * The server decides every step; the machine only knows when each is due. Its times are the order's own
 * (allotment_date, pay_date = end of the payment window, listing_date, lock_date = unlock time), read on the server's
 * clock: the device clock (`localNow`) plus the offset to the server (core/clock.ts), which the app sends again as
 * CLOCK whenever its estimate moves. When a step's time passes the machine shows "processing" until the server's
 * update arrives as ORDER (the private `ieo` topic merged with polling, streams/ieo/subscriptions.ts); while it
 * waits it also asks for the order itself every few seconds (`fetchOrder`). The payment (`payOrder`, ieo/pay) and the
 * fetch are actors the app provides (`provide`), so tests answer them by hand.
 */

/** What the payment call answers (core/api/ieo.ts IeoResult). */
export type PayCallResult =
  | { ok: true; order: IeoOrder }
  | { ok: false; message: string; field?: string; answered: boolean };

export interface SubscriptionMachineInput {
  /** The subscription as the server last sent it (ieo/order, ieo/myApply or the topic). */
  order: IeoOrder;
  /** The device clock, epoch ms (core/clock.ts serverClock.localNow in the app, a driven clock in tests). */
  localNow: () => number;
  /** Milliseconds to add to the device clock to get the server's time (core/clock.ts serverClock.offset()). */
  offset: number;
}

export type SubscriptionEvent =
  /** A copy of the subscription from the server (topic, poll or refetch); only a later phase counts. */
  | { type: 'ORDER'; order: IeoOrder }
  /** The user pays the allotment. */
  | { type: 'PAY' }
  /** The estimate of the server clock moved: the timers are set again. */
  | { type: 'CLOCK'; offset: number };

export interface SubscriptionContext {
  order: IeoOrder;
  localNow: () => number;
  offset: number;
  /** The step's time is further away than one timer may wait: when the timer fires it is set again. */
  timerClamped: boolean;
  /** What went wrong with the last payment (a message in the user's language, from the server or the client). */
  error: string | null;
}

/** SPEC 8: a failure without a message of its own shows "ERROR". */
export const NO_ANSWER = 'ERROR';

/**
 * The longest a timer waits in one go. Browsers keep a timeout in 32 bits (about 24.8 days) and fire a longer one at
 * once; a lock period of months is common, so a far step is waited for in days, re-armed each time.
 */
export const MAX_TIMER_MS = 24 * 60 * 60 * 1000;
/** How often a processing step asks the server for the order while no update has come. */
export const RECHECK_MS = 5_000;

/** The server's time now, as the machine knows it. */
export const serverTimeOf = (context: Pick<SubscriptionContext, 'localNow' | 'offset'>): number =>
  context.localNow() + context.offset;

/** Milliseconds until server time `at`, as one timer may wait them. */
const timerFor = (context: SubscriptionContext, at: number) =>
  Math.min(MAX_TIMER_MS, Math.max(0, at - serverTimeOf(context)));

/** The order a `fetchOrder` answer carries (its done event is not one of the machine's own events). */
const fetchedOrder = (event: unknown): IeoOrder | null => (event as { output?: IeoOrder | false }).output || null;

export const ieoSubscriptionMachine = setup({
  types: {
    context: {} as SubscriptionContext,
    events: {} as SubscriptionEvent,
    input: {} as SubscriptionMachineInput,
  },
  actors: {
    // The app provides the real calls (core/api/ieo.ts); these defaults never settle, so a bare machine is inert.
    payOrder: fromPromise<PayCallResult, { id: number }>(() => new Promise(() => {})),
    fetchOrder: fromPromise<IeoOrder | false, { id: number }>(() => new Promise(() => {})),
    /** ORDER for each copy of the order and CLOCK for each clock step (machines/live-order.ts); none by default. */
    live: fromEventObservable<SubscriptionEvent, { id: number }>(() => EMPTY),
  },
  delays: {
    untilAllotment: ({ context }) => timerFor(context, context.order.allotment_date),
    untilPayDeadline: ({ context }) => timerFor(context, context.order.pay_date),
    untilListing: ({ context }) => timerFor(context, context.order.listing_date),
    untilUnlock: ({ context }) => timerFor(context, context.order.lock_date),
    recheck: RECHECK_MS,
  },
  guards: {
    /** A later copy of this subscription (the same or an earlier phase is a repeat or late news). */
    isNewsOfThisOrder: ({ context, event }) =>
      event.type === 'ORDER' && event.order.id === context.order.id && isNewerIeoOrder(context.order, event.order),
    timerClamped: ({ context }) => context.timerClamped,
    /** `fetchOrder` answered a later copy of this subscription. */
    fetchedNews: ({ context, event }) => {
      const order = fetchedOrder(event);
      return order !== null && order.id === context.order.id && isNewerIeoOrder(context.order, order);
    },
  },
  actions: {
    takeOrder: assign(({ context, event }) =>
      event.type === 'ORDER' ? { order: newerIeoOrder(context.order, event.order), error: null } : {},
    ),
    takeFetched: assign(({ context, event }) => {
      const order = fetchedOrder(event);
      return order ? { order: newerIeoOrder(context.order, order), error: null } : {};
    }),
    /** On entering a waiting state: whether its time is further away than one timer may wait. */
    noteTimerLimit: assign(({ context }, params: { field: TimedField }) => ({
      timerClamped: context.order[params.field] - serverTimeOf(context) > MAX_TIMER_MS,
    })),
    setOffset: assign(({ context, event }) =>
      event.type === 'CLOCK' ? { offset: event.offset } : { offset: context.offset },
    ),
  },
}).createMachine({
  id: 'ieoSubscription',
  context: ({ input }) => ({
    order: input.order,
    localNow: input.localNow,
    offset: input.offset,
    timerClamped: false,
    error: null,
  }),
  initial: 'routing',
  // The subscription's news reaches the machine for as long as it runs, whatever state it is in.
  invoke: { src: 'live', input: ({ context }) => ({ id: context.order.id }) },
  on: {
    // Any state: the server's newer word on the subscription decides where it is now.
    ORDER: { guard: 'isNewsOfThisOrder', target: '.routing', actions: 'takeOrder' },
    CLOCK: { actions: 'setOffset' },
  },
  states: {
    /** Transient: where the subscription the server sent belongs now (its phase, and whether its next step is due). */
    routing: {
      always: [
        ...SUBSCRIPTION_STEPS.filter((s) => s !== 'paying').map((step) => ({
          guard: ({ context }: { context: SubscriptionContext }) =>
            stepOf(context.order, serverTimeOf(context)) === step,
          target: step,
        })),
      ],
    },
    /** 1, subscription done: the allotment has not run yet; waits for the allotment time. */
    waitingForAllotment: {
      entry: { type: 'noteTimerLimit', params: { field: 'allotment_date' } },
      after: {
        // A clamped timer only means "a day has passed": wait again. Otherwise the step is due.
        untilAllotment: [
          { guard: 'timerClamped', target: 'waitingForAllotment', reenter: true },
          { target: 'allotting' },
        ],
      },
      on: { CLOCK: { target: 'waitingForAllotment', reenter: true, actions: 'setOffset' } },
    },
    /** 1, processing: the allotment time has passed; the server's allotment (or its failure) is awaited. */
    allotting: {
      invoke: {
        id: 'fetchOrder',
        src: 'fetchOrder',
        input: ({ context }) => ({ id: context.order.id }),
        onDone: { guard: 'fetchedNews', target: 'routing', actions: 'takeFetched' },
      },
      after: { recheck: { target: 'allotting', reenter: true } },
    },
    /** 2, allotment failed: nothing was allotted, nothing is owed. Final. */
    allotmentFailed: { type: 'final' },
    /** 3, allotment done: the allotment can be paid until the payment window ends (pay_date). */
    allotted: {
      entry: { type: 'noteTimerLimit', params: { field: 'pay_date' } },
      after: {
        untilPayDeadline: [{ guard: 'timerClamped', target: 'allotted', reenter: true }, { target: 'lapsing' }],
      },
      on: {
        PAY: { target: 'paying', actions: assign({ error: null }) },
        CLOCK: { target: 'allotted', reenter: true, actions: 'setOffset' },
      },
    },
    /** 3, paying: ieo/pay is on its way. A refusal or no answer goes back to allotted, with the message. */
    paying: {
      invoke: {
        id: 'payOrder',
        src: 'payOrder',
        input: ({ context }) => ({ id: context.order.id }),
        onDone: [
          {
            guard: ({ event }) => event.output.ok,
            target: 'routing',
            actions: assign(({ context, event }) =>
              event.output.ok ? { order: newerIeoOrder(context.order, event.output.order), error: null } : {},
            ),
          },
          {
            // Refused (balance, window closed) or unanswered: paying again is safe, the server pays an order once.
            target: 'routing',
            actions: assign(({ event }) => (event.output.ok ? {} : { error: event.output.message })),
          },
        ],
        onError: { target: 'routing', actions: assign({ error: NO_ANSWER }) },
      },
    },
    /** 3, processing: the payment window has ended unpaid; the server's lapse is awaited. */
    lapsing: {
      invoke: {
        id: 'fetchOrder',
        src: 'fetchOrder',
        input: ({ context }) => ({ id: context.order.id }),
        onDone: { guard: 'fetchedNews', target: 'routing', actions: 'takeFetched' },
      },
      after: { recheck: { target: 'lapsing', reenter: true } },
    },
    /** 3, "fail": the allotment lapsed unpaid (the payment window closed). Final. */
    lapsed: { type: 'final' },
    /** 4, payment done: waits for the listing time. */
    paid: {
      entry: { type: 'noteTimerLimit', params: { field: 'listing_date' } },
      after: {
        untilListing: [{ guard: 'timerClamped', target: 'paid', reenter: true }, { target: 'listing' }],
      },
      on: { CLOCK: { target: 'paid', reenter: true, actions: 'setOffset' } },
    },
    /** 4, processing: the listing time has passed; the server's listing (coins credited, locked) is awaited. */
    listing: {
      invoke: {
        id: 'fetchOrder',
        src: 'fetchOrder',
        input: ({ context }) => ({ id: context.order.id }),
        onDone: { guard: 'fetchedNews', target: 'routing', actions: 'takeFetched' },
      },
      after: { recheck: { target: 'listing', reenter: true } },
    },
    /** 5, listed and locked: the coins are credited but frozen until the unlock time (lock_date). */
    locked: {
      entry: { type: 'noteTimerLimit', params: { field: 'lock_date' } },
      after: {
        untilUnlock: [{ guard: 'timerClamped', target: 'locked', reenter: true }, { target: 'unlocking' }],
      },
      on: { CLOCK: { target: 'locked', reenter: true, actions: 'setOffset' } },
    },
    /** 5, processing: the unlock time has passed; the server's unlock is awaited. */
    unlocking: {
      invoke: {
        id: 'fetchOrder',
        src: 'fetchOrder',
        input: ({ context }) => ({ id: context.order.id }),
        onDone: { guard: 'fetchedNews', target: 'routing', actions: 'takeFetched' },
      },
      after: { recheck: { target: 'unlocking', reenter: true } },
    },
    /** 6, unlocked ("success"): the coins are available. Final. */
    unlocked: { type: 'final' },
  },
});

export type SubscriptionSnapshot = SnapshotFrom<typeof ieoSubscriptionMachine>;

/** What the order page shows for a snapshot at server time `now`: one pure function, used by the UI and the tests. */
export interface SubscriptionView {
  step: SubscriptionStep;
  /** SPEC 4 ipo_status of the step (a lapsed allotment keeps 3). */
  ipoStatus: 1 | 2 | 3 | 4 | 5 | 6;
  label: IeoLabel;
  /** Key (ieo namespace) of the badge. */
  labelKey: `ieo.label.${IeoLabel}`;
  /** A timed step is due and the server has not confirmed it yet. */
  processing: boolean;
  /** The Pay button is shown and enabled (status 3, inside the payment window, no payment on its way). */
  canPay: boolean;
  /** A payment is on its way. */
  busy: boolean;
  /** The time the machine waits for next, and how long that is on the server clock; null when it waits for none. */
  next: { step: IeoTimedStep; at: number; msLeft: number } | null;
  /** Nothing more will happen (failed, lapsed, unlocked). */
  finished: boolean;
  error: string | null;
  order: IeoOrder;
}

export function subscriptionView(snapshot: SubscriptionSnapshot, now: number): SubscriptionView {
  const value = snapshot.value as SubscriptionStep | 'routing';
  const { order, error } = snapshot.context;
  // `routing` is left in the step it is entered; it never shows, but says something sane if it did.
  const step: SubscriptionStep = value === 'routing' ? stepOf(order, now) : value;
  const facts = STEP_FACTS[step];
  const field = facts.waitsFor;
  return {
    step,
    ipoStatus: facts.status,
    label: facts.label,
    labelKey: `ieo.label.${facts.label}`,
    processing: facts.label === 'processing',
    canPay: step === 'allotted',
    busy: step === 'paying',
    next:
      field === null ? null : { step: TIMED_STEP[field], at: order[field], msLeft: Math.max(0, order[field] - now) },
    finished: snapshot.status === 'done',
    error,
    order,
  };
}
