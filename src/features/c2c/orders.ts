import type { C2cOrder, C2cStatus } from '../../../protocol/c2c';
import { isOpenC2cOrder, newerC2cOrder } from '../../../streams/c2c/news';

/** The order list's tabs: every order, or one status (SPEC 4, with 3 completed and 4 appeal). */
export const ORDER_TABS = ['all', 1, 2, 4, 3, 5] as const;
export type OrderTab = (typeof ORDER_TABS)[number];

/** The statuses a tab asks the server for (none: every order). */
export const statusesOf = (tab: OrderTab): C2cStatus[] => (tab === 'all' ? [] : [tab]);

/**
 * The order list's rows: the pages loaded so far (ctc/order/list), each replaced by the stream's copy when that is
 * newer, plus what the stream knows of this side and tab that is newer than the loaded pages' oldest row (an order
 * made meanwhile); once every page is loaded, everything of it the stream knows. A loaded row whose status moved on
 * stays where it is with its new status until the list is loaded again. Newest first.
 */
export function mergeOrders(
  loaded: readonly C2cOrder[],
  live: readonly C2cOrder[] | null,
  allLoaded: boolean,
  belongs: (order: C2cOrder) => boolean,
): C2cOrder[] {
  if (!live || live.length === 0) return [...loaded];
  const byId = new Map<number, C2cOrder>();
  for (const o of loaded) byId.set(o.id, o);
  const oldest = loaded.reduce((min, o) => Math.min(min, o.id), Number.POSITIVE_INFINITY);
  for (const o of live) {
    const held = byId.get(o.id);
    if (held) byId.set(o.id, newerC2cOrder(held, o));
    else if (belongs(o) && (allLoaded || o.id > oldest)) byId.set(o.id, o);
  }
  return [...byId.values()].sort((a, b) => b.created_at - a.created_at || b.id - a.id);
}

/** Whether an order belongs to a side and a tab of the list. */
export const belongsTo =
  (side: C2cOrder['role'], tab: OrderTab) =>
  (order: C2cOrder): boolean =>
    order.role === side && (tab === 'all' || order.status === tab);

/**
 * The user's open order (as buyer) on one ad among the orders the `c2c` stream knows, or null. The server takes one
 * open order per buyer and ad (`c2cOrderOpen`), so the ad's page shows this one instead of a form it would refuse.
 */
export const openOrderOn = (adId: number, orders: readonly C2cOrder[] | null): C2cOrder | null =>
  orders?.find((o) => o.role === 'buyer' && o.ad_id === adId && isOpenC2cOrder(o)) ?? null;
