import { type IeoLabel, labelOf, stepOf } from '../../../machines/ieo/steps';
import type { IeoOrder } from '../../../protocol/ieo';
import { newerIeoOrder } from '../../../streams/ieo/news';

/**
 * The order list's rows: the pages loaded so far (ieo/myApply), each replaced by the stream's copy when that is
 * newer, plus what the stream knows that is newer than the loaded pages' oldest row (a subscription made meanwhile);
 * once every page is loaded, everything the stream knows. Newest first.
 */
export function mergeOrders(
  loaded: readonly IeoOrder[],
  live: readonly IeoOrder[] | null,
  allLoaded: boolean,
): IeoOrder[] {
  if (!live || live.length === 0) return [...loaded];
  const byId = new Map<number, IeoOrder>();
  for (const o of loaded) byId.set(o.id, o);
  const oldest = loaded.reduce((min, o) => Math.min(min, o.id), Number.POSITIVE_INFINITY);
  for (const o of live) {
    const held = byId.get(o.id);
    if (held) byId.set(o.id, newerIeoOrder(held, o));
    else if (allLoaded || o.id > oldest) byId.set(o.id, o);
  }
  return [...byId.values()].sort((a, b) => b.apply_time - a.apply_time || b.id - a.id);
}

/** The badges the overview counts, in the order of the steps. */
export const COUNTED_LABELS: readonly IeoLabel[] = [
  'subscribed',
  'processing',
  'allotted',
  'paid',
  'locked',
  'success',
  'failed',
  'fail',
];

/** How many subscriptions carry each badge at server time `now` (a payment on its way counts as allotted). */
export function countByLabel(orders: readonly IeoOrder[], now: number): Map<IeoLabel, number> {
  const counts = new Map<IeoLabel, number>(COUNTED_LABELS.map((l) => [l, 0]));
  for (const o of orders) {
    const label = labelOf(stepOf(o, now));
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return counts;
}
