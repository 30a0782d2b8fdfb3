import type { SpotOrder } from '../../protocol/spot';
import type { MachineWalks } from '../model';
import type { OrderDraft, OrderEvent, OrderSnapshot, spotOrderMachine } from './order.machine';

/**
 * The walks of the spot order machine's model-based tests (order.machine.test.ts), and the fixtures they send: the
 * tests replay every path of these walks on a live actor, and the QA view (machines/registry.ts) lists the same ones.
 */

export const draft: OrderDraft = {
  symbol: 'BTC',
  side: 'buy',
  type: 'limit',
  mode: 'quantity',
  qty: '0.01',
  price: '50000',
};

export const order = (state: SpotOrder['state'], updatedAt: number, extra: Partial<SpotOrder> = {}): SpotOrder => ({
  id: 7,
  symbol: 'BTC',
  side: 'buy',
  type: 'limit',
  mode: 'quantity',
  qty: '0.01',
  amount: null,
  price: '50000',
  fee_rate: '0.001',
  held: state === 'waiting' || state === 'pending' ? '500.5' : '0',
  state,
  cancel_reason: null,
  fill: null,
  // The model's ids come from a counter; updates match by order id once the placement answered.
  request_id: 'req-1',
  created_at: 1_000,
  updated_at: updatedAt,
  ...extra,
});

export const filled = order('completed', 3_000, {
  fill: {
    tick: { symbol: 'BTC', seq: 42, ts: 2_900, price: '49990' },
    qty: '0.01',
    price: '49990',
    value: '499.9',
    fee: '0.4999',
    total: '500.3999',
    at: 2_900,
  },
});

/** Request ids req-1, req-2, … (the app's newRequestId stands in for this). */
export function counter(): () => string {
  let n = 0;
  return () => `req-${++n}`;
}

/** The events the model may take. Done events of the invoked calls stand for the server's answers. */
const EVENTS = {
  submit: { type: 'SUBMIT', draft },
  review: { type: 'REVIEW', draft },
  confirm: { type: 'CONFIRM' },
  back: { type: 'BACK' },
  accepted: { type: 'xstate.done.actor.placeOrder', output: { ok: true, order: order('waiting', 1_000) } },
  refused: {
    type: 'xstate.done.actor.placeOrder',
    output: { ok: false, message: 'Insufficient balance', field: 'qty', answered: true },
  },
  lost: { type: 'xstate.error.actor.placeOrder', error: new Error('offline') },
  rests: { type: 'ORDER_UPDATE', order: order('pending', 2_000) },
  fills: { type: 'ORDER_UPDATE', order: filled },
  noTick: { type: 'ORDER_UPDATE', order: order('cancelled', 11_000, { cancel_reason: 'no_tick' }) },
  cancel: { type: 'CANCEL' },
  cancelled: {
    type: 'xstate.done.actor.cancelOrder',
    output: { ok: true, order: order('cancelled', 4_000, { cancel_reason: 'user' }) },
  },
  cancelRefused: {
    type: 'xstate.done.actor.cancelOrder',
    output: { ok: false, message: 'This order can no longer be cancelled', answered: true },
  },
  newOrder: { type: 'NEW_ORDER' },
  stale: { type: 'PRICES_STALE' },
  fresh: { type: 'PRICES_FRESH' },
} as const;

/**
 * The model's events as the machine's event type. The cast is XState's: the machine reacts to its invoked calls'
 * done and error events (`xstate.done.actor.placeOrder`, …), but its event type lists only the events it declares
 * (OrderEvent), so those answers cannot be typed as its events without it.
 */
const events = Object.values(EVENTS) as readonly OrderEvent[];

export const spotOrderWalks = {
  /**
   * Every state of the order in both price states, by the fewest events (the tests also walk its simple paths).
   * createTestModel refuses machines that invoke; the path generators walk the same graph without that check.
   * States are serialised by value, so the walk ends. The request-id counter is made once with the walk and shared
   * by every traversal of it, as when the test defined it inline.
   */
  shortest: {
    input: { makeId: counter() },
    events,
    serializeState: (snapshot: OrderSnapshot) => JSON.stringify(snapshot.value),
  },
} satisfies MachineWalks<typeof spotOrderMachine>;
