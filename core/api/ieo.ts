import {
  type IeoApplyRequest,
  type IeoDetail,
  type IeoOrder,
  type IeoOrderPage,
  type IeoProjectPage,
  ieoCalls,
} from '../../protocol/ieo';
import { areaApi, type CallOptions, type Refusal, refusal } from './client';

const { callApi, callApiResult } = areaApi(ieoCalls);

/**
 * IEO: new-coin subscriptions (ieo/*). Reads show no global loading bar (the pages show their own spinner or pull
 * indicator); the poll beside the `ieo` topic is quiet (a failed poll is simply retried on schedule). Subscribing and
 * paying answer the subscription in its new state, so one result type serves both.
 */
const read = { loading: false } as const;
const background = { quiet: true, loading: false } as const;

/** One page of the projects, newest first (public). */
export function fetchIeoProjects(
  beforeId: number | null,
  limit = 20,
  opts: CallOptions = read,
): Promise<IeoProjectPage | false> {
  return callApi('ieo/list', { limit: String(limit), ...(beforeId ? { before_id: String(beforeId) } : {}) }, opts);
}

/** A project, with the caller's own subscription to it when a session is sent (public). */
export function fetchIeoDetail(id: number, opts: CallOptions = read): Promise<IeoDetail | false> {
  return callApi('ieo/detail', { id: String(id) }, opts);
}

/** One page of the caller's subscriptions, newest first. */
export function fetchMyIeoOrders(
  beforeId: number | null,
  limit = 20,
  opts: CallOptions = read,
): Promise<IeoOrderPage | false> {
  return callApi('ieo/myApply', { limit: String(limit), ...(beforeId ? { before_id: String(beforeId) } : {}) }, opts);
}

/** One of the caller's subscriptions. */
export function fetchIeoOrder(id: number, opts: CallOptions = read): Promise<IeoOrder | false> {
  return callApi('ieo/order', { id: String(id) }, opts);
}

/** How many subscriptions the poll beside the topic reads (the topic's snapshot holds the newest 100 too). */
export const IEO_POLL_LIMIT = 100;

/** The poll beside the `ieo` topic (streams/ieo/subscriptions.ts): the newest subscriptions, quietly. */
export async function pollMyIeoOrders(): Promise<IeoOrder[] | false> {
  const page = await fetchMyIeoOrders(null, IEO_POLL_LIMIT, background);
  return page === false ? false : page.orders;
}

/**
 * What a subscription or a payment answered. `answered` is false when no answer came at all (offline, timeout, a
 * body that is not an envelope): the server may still have acted, so a retried subscription must carry the same id
 * (a payment needs none: the server pays an order once however often it is asked).
 */
export type IeoResult = { ok: true; order: IeoOrder } | Refusal;

async function orderResult(call: ReturnType<typeof callApiResult<'ieo/apply'>>): Promise<IeoResult> {
  const r = await call;
  if (r.ok) return { ok: true, order: r.data };
  return refusal(r);
}

/**
 * Subscribes a quantity to an open project; send the same `request_id` again to retry the same subscription (the
 * server answers the subscription it made). Quiet: the purchase page shows the refusal beside its field or button.
 */
export function applyIeo(body: IeoApplyRequest): Promise<IeoResult> {
  return orderResult(callApiResult('ieo/apply', body, { quiet: true }));
}

/** Pays an allotted subscription (allotment × IEO price in USDT from the coin account). Quiet, like applyIeo. */
export function payIeoOrder(id: number): Promise<IeoResult> {
  return orderResult(callApiResult('ieo/pay', { id: String(id) }, { quiet: true }));
}
