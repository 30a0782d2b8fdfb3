import { type IeoOrder, type IeoPhase, IPO_STATUS_OF_PHASE } from '../../protocol/ieo';
import type { MachineWalks } from '../model';
import type {
  ieoSubscriptionMachine,
  PayCallResult,
  SubscriptionEvent,
  SubscriptionSnapshot,
  SubscriptionStep,
} from './subscription.machine';

/**
 * The walks of the IEO subscription machine's model-based tests (subscription.machine.test.ts), and the fixtures
 * they send: the tests replay every path of these walks on a live actor, and the QA view (machines/registry.ts) lists
 * the same ones.
 */

export const MIN = 60_000;
const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

/** The server's clock in the model: fixed, before every step of the project. */
export const SERVER_NOW = 1_700_000_000_000;
export const ALLOT = SERVER_NOW + 10 * MIN;
export const PAY_UNTIL = SERVER_NOW + 20 * MIN;
export const LISTING = PAY_UNTIL;
export const UNLOCK = SERVER_NOW + HOUR;

export const order = (phase: IeoPhase, extra: Partial<IeoOrder> = {}): IeoOrder => {
  const allotted = phase !== 'subscribed';
  const got = allotted && phase !== 'failed';
  const paid = phase === 'paid' || phase === 'locked' || phase === 'unlocked';
  return {
    id: 7,
    sn: 'I00000007',
    project_id: 3,
    coin: 'DEMO',
    name: 'Demo Token',
    description: 'A demo project',
    scale: 8,
    listing_price: '0.08',
    ieo_price: '0.05',
    total_supply: '100000000',
    circulating_supply: '20000000',
    quantity: '5000.00000000',
    allotment_quantity: allotted ? (got ? '1234.56789012' : '0.00000000') : null,
    pending_quantity: allotted ? (got ? '3765.43210988' : '5000.00000000') : null,
    payment: got ? '61.728395' : null,
    success_pay: paid ? '61.728395' : null,
    ipo_status: IPO_STATUS_OF_PHASE[phase],
    phase,
    apply_time: SERVER_NOW - MIN,
    allotment_date: ALLOT,
    pay_date: PAY_UNTIL,
    listing_date: LISTING,
    lock_date: UNLOCK,
    paid_at: paid ? SERVER_NOW + 12 * MIN : null,
    request_id: 'req-1',
    ...extra,
  };
};

/** The delayed transitions' events: what the timers deliver (the model delivers them like any other event). */
const after = (delay: string, state: SubscriptionStep) => ({ type: `xstate.after.${delay}.ieoSubscription.${state}` });
export const fetched = (o: IeoOrder | false) => ({ type: 'xstate.done.actor.fetchOrder', output: o });
export const payAnswer = (output: PayCallResult) => ({ type: 'xstate.done.actor.payOrder', output });

const EVENTS = {
  allotmentTime: after('untilAllotment', 'waitingForAllotment'),
  payDeadline: after('untilPayDeadline', 'allotted'),
  listingTime: after('untilListing', 'paid'),
  unlockTime: after('untilUnlock', 'locked'),
  recheckAllotting: after('recheck', 'allotting'),
  recheckLapsing: after('recheck', 'lapsing'),
  recheckListing: after('recheck', 'listing'),
  recheckUnlocking: after('recheck', 'unlocking'),
  repeat: { type: 'ORDER', order: order('subscribed') },
  allotted: { type: 'ORDER', order: order('allotted') },
  failed: { type: 'ORDER', order: order('failed') },
  paidElsewhere: { type: 'ORDER', order: order('paid') },
  lapsed: { type: 'ORDER', order: order('lapsed') },
  locked: { type: 'ORDER', order: order('locked') },
  unlocked: { type: 'ORDER', order: order('unlocked') },
  fetchedSame: fetched(order('subscribed')),
  fetchedAllotted: fetched(order('allotted')),
  fetchedLapsed: fetched(order('lapsed')),
  fetchedLocked: fetched(order('locked')),
  fetchedUnlocked: fetched(order('unlocked')),
  pay: { type: 'PAY' },
  payDone: payAnswer({ ok: true, order: order('paid') }),
  payRefused: payAnswer({ ok: false, message: 'Insufficient balance', field: 'id', answered: true }),
  payLost: { type: 'xstate.error.actor.payOrder', error: new Error('offline') },
  clock: { type: 'CLOCK', offset: 0 },
} as const;

/**
 * The model's events as the machine's event type. The cast is XState's: the machine reacts to its timers' events
 * (`xstate.after.*`) and its invoked calls' done and error events (`xstate.done.actor.payOrder`, …), but its event
 * type lists only the events it declares (SubscriptionEvent), so those cannot be typed as its events without it.
 */
const events = Object.values(EVENTS) as readonly SubscriptionEvent[];

export const ieoSubscriptionWalks = {
  /**
   * Every step of the subscription, by the fewest events (the tests also walk its simple paths). The server's clock
   * is fixed at SERVER_NOW, before every step of the project. The path generators walk the graph the machine
   * declares (they do not run the invoked calls or the timers). A final state (failed, lapsed, unlocked) ends the
   * actor: a live one takes no more events, so the walk sends it none. States are serialised by value, so the walk
   * ends.
   */
  shortest: {
    input: { order: order('subscribed'), localNow: () => SERVER_NOW, offset: 0 },
    events: (snapshot: SubscriptionSnapshot) => (snapshot.status === 'done' ? [] : events),
    serializeState: (snapshot: SubscriptionSnapshot) => JSON.stringify(snapshot.value),
  },
} satisfies MachineWalks<typeof ieoSubscriptionMachine>;
