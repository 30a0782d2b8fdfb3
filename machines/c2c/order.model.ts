import { C2C_PAY_WINDOW_MS, type C2cOrder, type C2cStatus } from '../../protocol/c2c';
import type { MachineWalk, MachineWalks } from '../model';
import type { C2cCallResult, C2cOrderEvent, C2cOrderSnapshot, C2cOrderStep, c2cOrderMachine } from './order.machine';

/**
 * The C2C order machine's model: the server's copies of one order and the answers to its calls that the model-based
 * test sends (order.machine.test.ts), and the walks it takes through the machine with them, one per role. The QA
 * view lists the same walks (machines/registry.ts), so the paths QA reads are the paths the test replays.
 */

export const MIN = 60_000;
/** The server's clock in the model: fixed, 10 minutes into the order's window. */
const CREATED = 1_700_000_000_000;
export const SERVER_NOW = CREATED + 10 * MIN;
export const PAY_UNTIL = CREATED + C2C_PAY_WINDOW_MS;

export type Role = C2cOrder['role'];

export const order = (status: C2cStatus, extra: Partial<C2cOrder> = {}): C2cOrder => {
  const paid = status !== 1 && !(status === 5 && extra.cancel_reason !== 'appeal');
  return {
    id: 7,
    sn: 'C00000007',
    ad_id: 3,
    role: 'buyer',
    merchant_nickname: 'Demo Merchant',
    buyer_nickname: 'user12',
    coin: 'BTC',
    scale: 8,
    fiat: 'EUR',
    price: '60000.00',
    quantity: '0.01000000',
    amount: '600.00',
    min_fiat: '50.00',
    max_fiat: '5000.00',
    pay_type: 'sepa',
    pay_info: { type: 'sepa', name: 'Demo Merchant GmbH', account: 'DE89370400440532013000', note: 'Demo Bank' },
    status,
    created_at: CREATED,
    pay_until: PAY_UNTIL,
    paid_at: paid ? CREATED + 12 * MIN : null,
    completed_at: status === 3 ? CREATED + 40 * MIN : null,
    cancelled_at: status === 5 ? CREATED + 30 * MIN : null,
    cancel_reason: status === 5 ? 'expired' : null,
    appeal: null,
    conversation_id: 4,
    request_id: 'req-1',
    ...extra,
  };
};
const appealOf = (decision: 'release' | 'cancel' | null) => ({
  by: 'buyer' as const,
  reason: 'The merchant does not answer',
  opened_at: CREATED + 20 * MIN,
  decision,
  decision_reason: decision ? 'Payment checked with the bank' : null,
  decided_at: decision ? CREATED + 50 * MIN : null,
});

export const ORDERS = {
  paying: order(1),
  paid: order(2),
  appeal: order(4, { appeal: appealOf(null) }),
  completed: order(3),
  cancelledByBuyer: order(5, { cancel_reason: 'buyer', cancelled_at: CREATED + 5 * MIN }),
  expired: order(5),
  decidedRelease: order(3, { appeal: appealOf('release'), completed_at: CREATED + 50 * MIN }),
  decidedCancel: order(5, { appeal: appealOf('cancel'), cancel_reason: 'appeal', cancelled_at: CREATED + 50 * MIN }),
};

const after = (delay: string, state: C2cOrderStep) => ({ type: `xstate.after.${delay}.c2cOrder.${state}` });
export const done = (actor: string, output: unknown) => ({ type: `xstate.done.actor.${actor}`, output });
export const lost = (actor: string) => ({ type: `xstate.error.actor.${actor}`, error: new Error('offline') });
export const refused = (message: string): C2cCallResult => ({ ok: false, message, field: 'id', answered: true });

export const EVENTS = {
  deadline: after('untilPayDeadline', 'awaitingPayment'),
  repeat: { type: 'ORDER', order: ORDERS.paying },
  paid: { type: 'ORDER', order: ORDERS.paid },
  appealed: { type: 'ORDER', order: ORDERS.appeal },
  completed: { type: 'ORDER', order: ORDERS.completed },
  cancelledByBuyer: { type: 'ORDER', order: ORDERS.cancelledByBuyer },
  expired: { type: 'ORDER', order: ORDERS.expired },
  decidedRelease: { type: 'ORDER', order: ORDERS.decidedRelease },
  decidedCancel: { type: 'ORDER', order: ORDERS.decidedCancel },
  fetchedSame: done('fetchOrder', ORDERS.paying),
  fetchedExpired: done('fetchOrder', ORDERS.expired),
  fetchedPaid: done('fetchOrder', ORDERS.paid),
  pay: { type: 'PAY' },
  cancel: { type: 'CANCEL' },
  release: { type: 'RELEASE' },
  appeal: { type: 'APPEAL', reason: 'The merchant does not answer' },
  appealBlank: { type: 'APPEAL', reason: '   ' },
  clock: { type: 'CLOCK' },
  payDone: done('payOrder', { ok: true, order: ORDERS.paid }),
  payRefused: done('payOrder', refused('The payment window has closed')),
  payLost: lost('payOrder'),
  cancelDone: done('cancelOrder', { ok: true, order: ORDERS.cancelledByBuyer }),
  cancelRefused: done('cancelOrder', refused('This order cannot be cancelled now')),
  cancelLost: lost('cancelOrder'),
  releaseDone: done('releaseOrder', { ok: true, order: ORDERS.completed }),
  releaseRefused: done('releaseOrder', refused('This order cannot be released now')),
  releaseLost: lost('releaseOrder'),
  appealDone: done('appealOrder', { ok: true, order: ORDERS.appeal }),
  appealRefused: done('appealOrder', refused('This order cannot be appealed now')),
  appealLost: lost('appealOrder'),
} as const;

export type ModelEvent = C2cOrderEvent | (typeof EVENTS)[keyof typeof EVENTS];

/** An event as the server would send it to `role`: every order in it carries the viewer's side. */
function asRole<E extends object>(e: E, role: Role): E {
  const mine = (o: C2cOrder) => ({ ...o, role });
  if ('order' in e) return { ...e, order: mine(e.order as C2cOrder) };
  if ('output' in e && e.output && typeof e.output === 'object') {
    const out = e.output as C2cCallResult | C2cOrder;
    if ('ok' in out) return out.ok ? { ...e, output: { ...out, order: mine(out.order) } } : e;
    return { ...e, output: mine(out) };
  }
  return e;
}

/**
 * The walk's events as the path generators type them (EventFromLogic, the machine's declared C2cOrderEvent). The
 * timers and the done and error events of the invoked calls reach the machine too (XState sends them), but they are
 * not among the events it declares, so the list is narrowed here, in one place, to the declared type.
 */
const asMachineEvents = (events: readonly ModelEvent[]) => events as readonly C2cOrderEvent[];

// The path generators walk the graph the machine declares (they do not run the invoked calls or the timers). A final
// state (completed, cancelled) ends the actor: a live one takes no more events, so the walk sends it none.
const walkAs = (role: Role) => {
  const events = asMachineEvents(Object.values(EVENTS).map((e) => asRole(e, role)));
  return {
    input: { order: order(1, { role }), now: () => SERVER_NOW },
    events: (snapshot: C2cOrderSnapshot) => (snapshot.status === 'done' ? [] : events),
    serializeState: (snapshot: C2cOrderSnapshot) => JSON.stringify(snapshot.value),
  } satisfies MachineWalk<typeof c2cOrderMachine>;
};

/**
 * One walk per viewer: the same order and the same server news, with every copy of the order carrying the viewer's
 * side, so each walk reaches the steps that role's actions lead to (the buyer pays and cancels, the merchant
 * releases) and none of the other's.
 */
export const c2cOrderWalks = {
  /** The buyer pays or cancels within the window, and may appeal once paid: never a release. */
  buyer: walkAs('buyer'),
  /** The merchant releases or appeals a paid order: never a payment or a cancel. */
  merchant: walkAs('merchant'),
} satisfies MachineWalks<typeof c2cOrderMachine>;
