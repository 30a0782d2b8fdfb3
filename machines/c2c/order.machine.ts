import { EMPTY } from 'rxjs';
import { assign, fromEventObservable, fromPromise, type SnapshotFrom, setup } from 'xstate';
import type { C2cOrder, C2cStatus } from '../../protocol/c2c';
import { c2cStep } from '../../protocol/rules/c2c';
import { isNewerC2cOrder, newerC2cOrder } from '../../streams/c2c/news';
import { type C2cLabel, type C2cOrderStep, LABEL_OF_STATUS, SERVER_STEPS, stepOf } from './steps';

export { C2C_ORDER_STEPS, type C2cLabel, type C2cOrderStep, labelOf, stepOf } from './steps';

/**
 * One C2C order as its buyer or its merchant sees it (RULES "C2C", SPEC 4 "C2C order status", protocol/c2c.ts):
 *
 *   awaitingPayment (1) ─ PAY (buyer) ─▶ markingPaid ─ server ─▶ paid (2)
 *   awaitingPayment (1) ─ CANCEL (buyer) ─▶ cancelling ─ server ─▶ cancelled (5, final)
 *   awaitingPayment (1) ─ end of the 30-minute window ─▶ expiring (1) ─ server's expiry ─▶ cancelled (5, final)
 *   paid (2) ─ RELEASE (merchant) ─▶ releasing ─ server ─▶ completed (3, final)
 *   paid (2) ─ APPEAL (either side) ─▶ appealing ─ server ─▶ appeal (4) ─ operator ─▶ completed (3) | cancelled (5)
 *
 * The server decides every step; the machine reflects the order the server last sent (ORDER: the `c2c` topic merged
 * with polling, streams/c2c/orders.ts, and the page's own loads), offers the actions the viewer's role may take in
 * that status, and counts the payment window down to `pay_until` on the SERVER's clock: `now` is a server-time
 * source (core/clock.ts serverNow in the app), so a device clock set wrong changes nothing; when the estimate of the
 * server clock moves the app sends CLOCK and the timer is set again. When the window ends the machine shows
 * "expiring" and asks for the order every few seconds until the server's own expiry (status 5) arrives: it never
 * cancels anything by itself. A refused or unanswered action goes back to where the order is, with the message.
 * The calls are actors the app provides (`provide`), so tests answer them by hand.
 */

/** What an action on the order answered (core/api/c2c.ts C2cResult). */
export type C2cCallResult =
  | { ok: true; order: C2cOrder }
  | { ok: false; message: string; field?: string; answered: boolean };

export interface C2cOrderMachineInput {
  /** The order as the server last sent it (ctc/order/info, ctc/order/list or the topic). */
  order: C2cOrder;
  /** Server time now, epoch ms (core/clock.ts serverNow in the app, a driven clock in tests). */
  now: () => number;
}

export type C2cOrderEvent =
  /** A copy of the order from the server (topic, poll or refetch); only a newer one counts. */
  | { type: 'ORDER'; order: C2cOrder }
  /** The buyer says the payment is made. */
  | { type: 'PAY' }
  /** The buyer cancels the unpaid order. */
  | { type: 'CANCEL' }
  /** The merchant releases the coins to the buyer. */
  | { type: 'RELEASE' }
  /** Either side appeals a paid order, with a reason for the operator. */
  | { type: 'APPEAL'; reason: string }
  /** The estimate of the server clock moved: the window's timer is set again. */
  | { type: 'CLOCK' };

export interface C2cOrderContext {
  order: C2cOrder;
  now: () => number;
  /** What went wrong with the last action (a message in the user's language, from the server or the client). */
  error: string | null;
  /** The reason of the appeal on its way. */
  reason: string;
}

/** SPEC 8: a failure without a message of its own shows "ERROR". */
export const NO_ANSWER = 'ERROR';
/** How often "expiring" asks the server for the order while its expiry has not arrived. */
export const RECHECK_MS = 5_000;

/** The order a `fetchOrder` answer carries (its done event is not one of the machine's own events). */
const fetchedOrder = (event: unknown): C2cOrder | null => (event as { output?: C2cOrder | false }).output || null;

/** The answer of an action call. */
const answerOf = (event: unknown): C2cCallResult | null => (event as { output?: C2cCallResult }).output ?? null;

/** The viewer's actions, as the published transition table (protocol/rules/c2c.ts) allows them at server time `at`. */
export type C2cAction = 'pay' | 'cancel' | 'release' | 'appeal';

/** Whether the server will accept `action` from this viewer now (the same table the server decides with). */
const allows = (context: C2cOrderContext, action: C2cAction, at = context.now()): boolean =>
  c2cStep(context.order, action, context.order.role, at).ok;

/** An action call, the same for all four: the order in its new state, or back where it is with the message. */
const actionCall = <S extends 'payOrder' | 'cancelOrder' | 'releaseOrder' | 'appealOrder'>(src: S) => ({
  id: src,
  src,
  input: ({ context }: { context: C2cOrderContext }) => ({ id: context.order.id, reason: context.reason }),
  onDone: { target: 'routing', actions: 'takeAnswer' } as const,
  onError: { target: 'routing', actions: 'noAnswer' } as const,
});

export const c2cOrderMachine = setup({
  types: {
    context: {} as C2cOrderContext,
    events: {} as C2cOrderEvent,
    input: {} as C2cOrderMachineInput,
  },
  actors: {
    // The app provides the real calls (core/api/c2c.ts); these defaults never settle, so a bare machine is inert.
    payOrder: fromPromise<C2cCallResult, { id: number; reason: string }>(() => new Promise(() => {})),
    cancelOrder: fromPromise<C2cCallResult, { id: number; reason: string }>(() => new Promise(() => {})),
    releaseOrder: fromPromise<C2cCallResult, { id: number; reason: string }>(() => new Promise(() => {})),
    appealOrder: fromPromise<C2cCallResult, { id: number; reason: string }>(() => new Promise(() => {})),
    fetchOrder: fromPromise<C2cOrder | false, { id: number }>(() => new Promise(() => {})),
    /** ORDER for each copy of the order and CLOCK for each clock step (machines/live-order.ts); none by default. */
    live: fromEventObservable<C2cOrderEvent, { id: number }>(() => EMPTY),
  },
  delays: {
    untilPayDeadline: ({ context }) => Math.max(0, context.order.pay_until - context.now()),
    recheck: RECHECK_MS,
  },
  guards: {
    /** A newer copy of this order (the same or an older status is a repeat or late news). */
    isNewsOfThisOrder: ({ context, event }) =>
      event.type === 'ORDER' && event.order.id === context.order.id && isNewerC2cOrder(context.order, event.order),
    /** `fetchOrder` answered a newer copy of this order. */
    fetchedNews: ({ context, event }) => {
      const order = fetchedOrder(event);
      return order !== null && order.id === context.order.id && isNewerC2cOrder(context.order, order);
    },
    /** The buyer may mark it paid while the window is open on the server's clock. */
    mayPay: ({ context }) => allows(context, 'pay'),
    mayCancel: ({ context }) => allows(context, 'cancel'),
    mayRelease: ({ context }) => allows(context, 'release'),
    /** Either side may appeal a paid order, with a reason. */
    mayAppeal: ({ context, event }) =>
      event.type === 'APPEAL' && event.reason.trim().length > 0 && allows(context, 'appeal'),
  },
  actions: {
    takeOrder: assign(({ context, event }) =>
      event.type === 'ORDER' ? { order: newerC2cOrder(context.order, event.order), error: null } : {},
    ),
    takeFetched: assign(({ context, event }) => {
      const order = fetchedOrder(event);
      return order ? { order: newerC2cOrder(context.order, order), error: null } : {};
    }),
    /** An action's answer: the order in its new state, or the refusal's message (the order stays as it was). */
    takeAnswer: assign(({ context, event }) => {
      const r = answerOf(event);
      if (!r) return { error: NO_ANSWER };
      return r.ok ? { order: newerC2cOrder(context.order, r.order), error: null } : { error: r.message || NO_ANSWER };
    }),
    noAnswer: assign({ error: NO_ANSWER }),
    clearError: assign({ error: null }),
    takeReason: assign(({ event }) => (event.type === 'APPEAL' ? { reason: event.reason.trim(), error: null } : {})),
  },
}).createMachine({
  id: 'c2cOrder',
  context: ({ input }) => ({ order: input.order, now: input.now, error: null, reason: '' }),
  initial: 'routing',
  // The order's news reaches the machine for as long as it runs, whatever state it is in.
  invoke: { src: 'live', input: ({ context }) => ({ id: context.order.id }) },
  on: {
    // Any state: the server's newer word on the order decides where it is now.
    ORDER: { guard: 'isNewsOfThisOrder', target: '.routing', actions: 'takeOrder' },
  },
  states: {
    /** Transient: where the order the server sent belongs now (its status, and whether its window has ended). */
    routing: {
      always: SERVER_STEPS.map((step) => ({
        guard: ({ context }: { context: C2cOrderContext }) => stepOf(context.order, context.now()) === step,
        target: step,
      })),
    },
    /** 1, paying: the buyer has until pay_until (server time) to pay outside the app and say so. */
    awaitingPayment: {
      after: { untilPayDeadline: { target: 'expiring' } },
      on: {
        PAY: { guard: 'mayPay', target: 'markingPaid', actions: 'clearError' },
        CANCEL: { guard: 'mayCancel', target: 'cancelling', actions: 'clearError' },
        CLOCK: { target: 'awaitingPayment', reenter: true },
      },
    },
    /** 1: ctc/order/pay is on its way. */
    markingPaid: { invoke: actionCall('payOrder') },
    /** 1: ctc/order/cancel is on its way. */
    cancelling: { invoke: actionCall('cancelOrder') },
    /**
     * 1, the window has ended unpaid: the server's expiry (5) is awaited. Paying is over; the buyer may still cancel
     * (the transition table allows it until the expiry has run).
     */
    expiring: {
      on: { CANCEL: { guard: 'mayCancel', target: 'cancelling', actions: 'clearError' } },
      invoke: {
        id: 'fetchOrder',
        src: 'fetchOrder',
        input: ({ context }) => ({ id: context.order.id }),
        onDone: { guard: 'fetchedNews', target: 'routing', actions: 'takeFetched' },
      },
      after: { recheck: { target: 'expiring', reenter: true } },
    },
    /** 2, paid: the merchant checks the payment and releases the coins; either side may appeal. */
    paid: {
      on: {
        RELEASE: { guard: 'mayRelease', target: 'releasing', actions: 'clearError' },
        APPEAL: { guard: 'mayAppeal', target: 'appealing', actions: 'takeReason' },
      },
    },
    /** 2: ctc/order/release is on its way. */
    releasing: { invoke: actionCall('releaseOrder') },
    /** 2: ctc/order/appeal is on its way. */
    appealing: { invoke: actionCall('appealOrder') },
    /** 4, appeal: an operator decides (release to the buyer, or cancel); nothing is offered meanwhile. */
    appeal: {},
    /** 3, completed: the coins are the buyer's. Final. */
    completed: { type: 'final' },
    /** 5, cancelled: by the buyer, by the window's end, or by an operator's decision; the escrow went back. Final. */
    cancelled: { type: 'final' },
  },
});

export type C2cOrderSnapshot = SnapshotFrom<typeof c2cOrderMachine>;

/** What the order page shows for a snapshot at server time `now`: one pure function, used by the UI and the tests. */
export interface C2cOrderView {
  step: C2cOrderStep;
  /** SPEC 4 status the page shows (the server's, which an action on its way has not changed yet). */
  status: C2cStatus;
  label: C2cLabel;
  /** Key (c2c namespace) of the badge. */
  labelKey: `c2c.status.${C2cLabel}`;
  /** The actions offered now to this viewer. */
  actions: Readonly<Record<C2cAction, boolean>>;
  /** The action on its way, if any. */
  busy: C2cAction | null;
  /** The payment window while it runs: its end and what is left of it on the server clock. */
  countdown: { at: number; msLeft: number } | null;
  /** Nothing more will happen (completed, cancelled). */
  finished: boolean;
  error: string | null;
  order: C2cOrder;
}

const BUSY_OF: Partial<Record<C2cOrderStep, C2cAction>> = {
  markingPaid: 'pay',
  cancelling: 'cancel',
  releasing: 'release',
  appealing: 'appeal',
};

/** The events each step takes (the machine's own `on`), so the view offers no button the machine would ignore. */
const OFFERS: Readonly<Record<C2cOrderStep, readonly C2cAction[]>> = {
  awaitingPayment: ['pay', 'cancel'],
  markingPaid: [],
  cancelling: [],
  expiring: ['cancel'],
  paid: ['release', 'appeal'],
  releasing: [],
  appealing: [],
  appeal: [],
  completed: [],
  cancelled: [],
};

export function c2cOrderView(snapshot: C2cOrderSnapshot, now: number): C2cOrderView {
  const value = snapshot.value as C2cOrderStep | 'routing';
  const { order, error } = snapshot.context;
  const step: C2cOrderStep = value === 'routing' ? stepOf(order, now) : value;
  const windowRuns = step === 'awaitingPayment' || step === 'markingPaid' || step === 'cancelling';
  return {
    step,
    status: order.status,
    label: step === 'expiring' ? 'expiring' : LABEL_OF_STATUS[order.status],
    labelKey: `c2c.status.${step === 'expiring' ? 'expiring' : LABEL_OF_STATUS[order.status]}`,
    // What the step takes (no action on its way), and of that only what the table allows this viewer now.
    actions: {
      pay: OFFERS[step].includes('pay') && allows(snapshot.context, 'pay', now),
      cancel: OFFERS[step].includes('cancel') && allows(snapshot.context, 'cancel', now),
      release: OFFERS[step].includes('release') && allows(snapshot.context, 'release', now),
      appeal: OFFERS[step].includes('appeal') && allows(snapshot.context, 'appeal', now),
    },
    busy: BUSY_OF[step] ?? null,
    countdown: windowRuns ? { at: order.pay_until, msLeft: Math.max(0, order.pay_until - now) } : null,
    finished: snapshot.status === 'done',
    error,
    order,
  };
}
