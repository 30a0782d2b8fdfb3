import type { C2cOrder, C2cStatus } from '../../protocol/c2c';

/**
 * The steps of a C2C order as its viewer sees them, without the machine (no XState here): lists place an order with
 * `stepOf` and name it with `labelOf`; the order machine (order.machine.ts) has one state per step and routes a
 * server's copy with the same `stepOf`.
 */

/** The states an order can rest in (every state but the transient `routing`). */
export const C2C_ORDER_STEPS = [
  'awaitingPayment',
  'markingPaid',
  'cancelling',
  'expiring',
  'paid',
  'releasing',
  'appealing',
  'appeal',
  'completed',
  'cancelled',
] as const;
export type C2cOrderStep = (typeof C2C_ORDER_STEPS)[number];

/** The steps an order the server sent can be in (the others are an action on its way). */
export const SERVER_STEPS = ['awaitingPayment', 'expiring', 'paid', 'appeal', 'completed', 'cancelled'] as const;

/** Where an order the server sent belongs at server time `now` (a paying order past its window is expiring). */
export function stepOf(order: Pick<C2cOrder, 'status' | 'pay_until'>, now: number): (typeof SERVER_STEPS)[number] {
  switch (order.status) {
    case 1:
      return now >= order.pay_until ? 'expiring' : 'awaitingPayment';
    case 2:
      return 'paid';
    case 3:
      return 'completed';
    case 4:
      return 'appeal';
    case 5:
      return 'cancelled';
  }
}

/** The badge of a step: SPEC 4's status words (3 and 4 are ours), and "expiring" once the window has ended. */
export type C2cLabel = 'paying' | 'paid' | 'completed' | 'appeal' | 'cancelled' | 'expiring';

export const LABEL_OF_STATUS: Readonly<Record<C2cStatus, C2cLabel>> = {
  1: 'paying',
  2: 'paid',
  3: 'completed',
  4: 'appeal',
  5: 'cancelled',
};

/** The badge of an order at server time `now`, without a machine (list rows use it too). */
export const labelOf = (order: Pick<C2cOrder, 'status' | 'pay_until'>, now: number): C2cLabel =>
  stepOf(order, now) === 'expiring' ? 'expiring' : LABEL_OF_STATUS[order.status];
