import type { IeoOrder } from '../../protocol/ieo';

/**
 * The steps of an IEO subscription as the user sees them, without the machine (no XState here): lists and the
 * project page place an order with `stepOf` and name it with `labelOf`; the subscription machine
 * (subscription.machine.ts) has one state per step and routes a server's copy with the same `stepOf`.
 */

/** The order's times a step waits for. */
export type TimedField = 'allotment_date' | 'pay_date' | 'listing_date' | 'lock_date';

/** The states a subscription can rest in (every state but the transient `routing`). */
export const SUBSCRIPTION_STEPS = [
  'waitingForAllotment',
  'allotting',
  'allotmentFailed',
  'allotted',
  'paying',
  'lapsing',
  'lapsed',
  'paid',
  'listing',
  'locked',
  'unlocking',
  'unlocked',
] as const;
export type SubscriptionStep = (typeof SUBSCRIPTION_STEPS)[number];

/**
 * Where a subscription the server sent belongs at server time `now`: its phase, and whether the phase's next timed
 * step is already due (then it is being processed until the server says more). `paying` is never a server's phase.
 */
export function stepOf(order: IeoOrder, now: number): Exclude<SubscriptionStep, 'paying'> {
  switch (order.phase) {
    case 'subscribed':
      return now >= order.allotment_date ? 'allotting' : 'waitingForAllotment';
    case 'failed':
      return 'allotmentFailed';
    case 'allotted':
      return now >= order.pay_date ? 'lapsing' : 'allotted';
    case 'lapsed':
      return 'lapsed';
    case 'paid':
      return now >= order.listing_date ? 'listing' : 'paid';
    case 'locked':
      return now >= order.lock_date ? 'unlocking' : 'locked';
    case 'unlocked':
      return 'unlocked';
  }
}

/** The badge of a step: SPEC 4's status words, plus processing, paying, fail (lapsed) and success (unlocked). */
export type IeoLabel =
  | 'subscribed'
  | 'failed'
  | 'allotted'
  | 'paid'
  | 'locked'
  | 'success'
  | 'processing'
  | 'paying'
  | 'fail';

/** The next time the machine waits for. */
export type IeoTimedStep = 'allotment' | 'payDeadline' | 'listing' | 'unlock';

/** Per step: its SPEC 4 ipo_status, its badge, and the order's time it waits for (null: it waits for the server or nothing). */
export const STEP_FACTS: Readonly<
  Record<SubscriptionStep, { status: 1 | 2 | 3 | 4 | 5 | 6; label: IeoLabel; waitsFor: TimedField | null }>
> = {
  waitingForAllotment: { status: 1, label: 'subscribed', waitsFor: 'allotment_date' },
  allotting: { status: 1, label: 'processing', waitsFor: null },
  allotmentFailed: { status: 2, label: 'failed', waitsFor: null },
  allotted: { status: 3, label: 'allotted', waitsFor: 'pay_date' },
  paying: { status: 3, label: 'paying', waitsFor: null },
  lapsing: { status: 3, label: 'processing', waitsFor: null },
  lapsed: { status: 3, label: 'fail', waitsFor: null },
  paid: { status: 4, label: 'paid', waitsFor: 'listing_date' },
  listing: { status: 4, label: 'processing', waitsFor: null },
  locked: { status: 5, label: 'locked', waitsFor: 'lock_date' },
  unlocking: { status: 5, label: 'processing', waitsFor: null },
  unlocked: { status: 6, label: 'success', waitsFor: null },
};

export const TIMED_STEP: Readonly<Record<TimedField, IeoTimedStep>> = {
  allotment_date: 'allotment',
  pay_date: 'payDeadline',
  listing_date: 'listing',
  lock_date: 'unlock',
};

/** The badge of a step (also for lists that place an order with `stepOf`, without a machine). */
export const labelOf = (step: SubscriptionStep): IeoLabel => STEP_FACTS[step].label;
