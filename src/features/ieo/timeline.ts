import type { SubscriptionStep } from '../../../machines/ieo/steps';
import type { IeoOrder } from '../../../protocol/ieo';

/**
 * The order page's step list (SPEC 4 ipo_status 1 → 6): five rows, one per step the server takes, each with its
 * SPEC number, its time and how far it is, from the machine's step. Allotment is 3, or 2 when it failed.
 */

export type RowState = 'done' | 'current' | 'processing' | 'failed' | 'skipped' | 'upcoming';
export type RowKey = 'subscribed' | 'allotment' | 'payment' | 'listing' | 'unlock';

export interface TimelineRow {
  key: RowKey;
  /** SPEC 4 ipo_status the row stands for. */
  status: 1 | 2 | 3 | 4 | 5 | 6;
  /** Key (ieo namespace) of the row's title. */
  titleKey: `ieo.steps.${string}`;
  /** Key of what the time is, and the time (server ms). */
  timeKey: `ieo.steps.at.${string}`;
  at: number;
  state: RowState;
}

const ROWS: readonly RowKey[] = ['subscribed', 'allotment', 'payment', 'listing', 'unlock'];

/** Where each row stands in each step: [subscribed, allotment, payment, listing, unlock]. */
const PROGRESS: Readonly<Record<SubscriptionStep, readonly RowState[]>> = {
  waitingForAllotment: ['done', 'current', 'upcoming', 'upcoming', 'upcoming'],
  allotting: ['done', 'processing', 'upcoming', 'upcoming', 'upcoming'],
  allotmentFailed: ['done', 'failed', 'skipped', 'skipped', 'skipped'],
  allotted: ['done', 'done', 'current', 'upcoming', 'upcoming'],
  paying: ['done', 'done', 'processing', 'upcoming', 'upcoming'],
  lapsing: ['done', 'done', 'processing', 'upcoming', 'upcoming'],
  lapsed: ['done', 'done', 'failed', 'skipped', 'skipped'],
  paid: ['done', 'done', 'done', 'current', 'upcoming'],
  listing: ['done', 'done', 'done', 'processing', 'upcoming'],
  locked: ['done', 'done', 'done', 'done', 'current'],
  unlocking: ['done', 'done', 'done', 'done', 'processing'],
  unlocked: ['done', 'done', 'done', 'done', 'done'],
};

export function timeline(order: IeoOrder, step: SubscriptionStep): TimelineRow[] {
  const states = PROGRESS[step];
  return ROWS.map((key, i): TimelineRow => {
    const state = states[i] ?? 'upcoming';
    switch (key) {
      case 'subscribed':
        return {
          key,
          status: 1,
          titleKey: 'ieo.steps.subscribed',
          timeKey: 'ieo.steps.at.applied',
          at: order.apply_time,
          state,
        };
      case 'allotment':
        return {
          key,
          status: state === 'failed' ? 2 : 3,
          titleKey:
            state === 'done'
              ? 'ieo.steps.allotted'
              : state === 'failed'
                ? 'ieo.steps.allotFailed'
                : 'ieo.steps.allotment',
          timeKey: 'ieo.steps.at.allotAt',
          at: order.allotment_date,
          state,
        };
      case 'payment':
        return state === 'done' && order.paid_at !== null
          ? { key, status: 4, titleKey: 'ieo.steps.paid', timeKey: 'ieo.steps.at.paidAt', at: order.paid_at, state }
          : {
              key,
              status: 4,
              titleKey: state === 'failed' ? 'ieo.steps.payClosed' : 'ieo.steps.payment',
              timeKey: 'ieo.steps.at.payBy',
              at: order.pay_date,
              state,
            };
      case 'listing':
        return {
          key,
          status: 5,
          titleKey: state === 'done' ? 'ieo.steps.listed' : 'ieo.steps.listing',
          timeKey: 'ieo.steps.at.listAt',
          at: order.listing_date,
          state,
        };
      default:
        return {
          key,
          status: 6,
          titleKey: state === 'done' ? 'ieo.steps.unlocked' : 'ieo.steps.unlock',
          timeKey: 'ieo.steps.at.unlockAt',
          at: order.lock_date,
          state,
        };
    }
  });
}
