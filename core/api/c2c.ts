import {
  type C2cAd,
  type C2cAdSaveRequest,
  type C2cFiat,
  type C2cOrder,
  type C2cOrderAddRequest,
  type C2cOrderPage,
  type C2cOwnAd,
  type C2cStatus,
  c2cCalls,
} from '../../protocol/c2c';
import { areaApi, type CallOptions, type Refusal, refusal } from './client';

const { callApi, callApiResult } = areaApi(c2cCalls);

/**
 * C2C: buying coins from merchants (ctc/*). Reads show no global loading bar (the pages show their own spinner or
 * pull indicator); the poll beside the `c2c` topic is quiet (a failed poll is simply retried on schedule). Every
 * action on an order (add, cancel, pay, release, appeal) answers the order in its new state, so one result type
 * serves them all; the pages show a refusal beside the button that was pressed, so these calls are quiet.
 */
const read = { loading: false } as const;
const background = { quiet: true, loading: false } as const;

const page = (limit: number, beforeId: number | null) => ({
  limit: String(limit),
  ...(beforeId ? { before_id: String(beforeId) } : {}),
});

/** The coins and fiat currencies that have open ads (the filters of assets/c2c/index; public). */
export function fetchC2cMarkets(opts: CallOptions = read) {
  return callApi('ctc/product/all', {}, opts);
}

export interface C2cAdFilter {
  coin?: string | undefined;
  fiat?: C2cFiat | undefined;
}

/** One page of the open ads, best price first (public). */
export function fetchC2cAds(
  filter: C2cAdFilter,
  beforeId: number | null,
  limit = 20,
  opts: CallOptions = read,
): Promise<{ ads: C2cAd[]; next_before_id: number | null } | false> {
  return callApi(
    'ctc/product/list',
    {
      ...(filter.coin ? { coin: filter.coin } : {}),
      ...(filter.fiat ? { fiat: filter.fiat } : {}),
      ...page(limit, beforeId),
    },
    opts,
  );
}

/** One ad (public). */
export function fetchC2cAd(id: number, opts: CallOptions = read): Promise<C2cAd | false> {
  return callApi('ctc/product/info', { id: String(id) }, opts);
}

export interface C2cOrderQuery {
  /** The caller's orders as buyer (default) or as merchant. */
  side?: 'buyer' | 'merchant';
  /** Only orders in these states; all when left out or empty. */
  status?: readonly C2cStatus[];
}

/** One page of the caller's orders, newest first. */
export function fetchC2cOrders(
  query: C2cOrderQuery,
  beforeId: number | null,
  limit = 20,
  opts: CallOptions = read,
): Promise<C2cOrderPage | false> {
  return callApi(
    'ctc/order/list',
    {
      ...(query.side ? { side: query.side } : {}),
      ...(query.status && query.status.length > 0 ? { status: query.status.join(',') } : {}),
      ...page(limit, beforeId),
    },
    opts,
  );
}

/** One of the caller's orders (as its buyer or its merchant). */
export function fetchC2cOrder(id: number, opts: CallOptions = read): Promise<C2cOrder | false> {
  return callApi('ctc/order/info', { id: String(id) }, opts);
}

/** How many orders of each side the poll beside the topic reads. */
export const C2C_POLL_LIMIT = 50;

/** One poll of the open orders: the orders, and the sides whose open orders all fit in it (no further page). */
export interface C2cOpenPoll {
  orders: C2cOrder[];
  complete: ('buyer' | 'merchant')[];
}

/**
 * The poll beside the `c2c` topic (streams/c2c/orders.ts): the caller's open orders (paying, paid, appeal), quietly;
 * the merchant's side too when `merchant` says the caller is one.
 */
export async function pollOpenC2cOrders(merchant = false): Promise<C2cOpenPoll | false> {
  const open = [1, 2, 4] as const;
  const sides = merchant ? (['buyer', 'merchant'] as const) : (['buyer'] as const);
  const pages = await Promise.all(
    sides.map((side) => fetchC2cOrders({ side, status: open }, null, C2C_POLL_LIMIT, background)),
  );
  // A side that failed is only missing from this poll (its orders stay as they were); all failing is a failed poll.
  if (pages.every((p) => p === false)) return false;
  const orders: C2cOrder[] = [];
  const complete: ('buyer' | 'merchant')[] = [];
  for (const [i, p] of pages.entries()) {
    if (p === false) continue;
    orders.push(...p.orders);
    if (p.next_before_id === null) complete.push(sides[i] ?? 'buyer');
  }
  return { orders, complete };
}

/**
 * What an action on an order answered. `answered` is false when no answer came at all (offline, timeout, a body that
 * is not an envelope): the server may still have acted, so a retried order must carry the same request id (the other
 * actions need none: each is a transition the server makes once).
 */
export type C2cResult = { ok: true; order: C2cOrder } | C2cRefusal;
/** What saving or closing an ad answered (the ad in its new state, or why not). */
export type C2cAdResult = { ok: true; ad: C2cOwnAd } | C2cRefusal;
export type C2cRefusal = Refusal;

/** The data of an answered call, or its refusal. */
async function refusalOr<T>(
  call: Promise<{ ok: true; data: T } | { ok: false; message: string; field?: string; reason?: string }>,
): Promise<{ ok: true; data: T } | C2cRefusal> {
  const r = await call;
  if (r.ok) return r;
  return refusal(r);
}

async function orderResult(
  call: Promise<{ ok: true; data: C2cOrder } | { ok: false; message: string; field?: string; reason?: string }>,
): Promise<C2cResult> {
  const r = await refusalOr(call);
  return r.ok ? { ok: true, order: r.data } : r;
}

async function adResult(
  call: Promise<{ ok: true; data: C2cOwnAd } | { ok: false; message: string; field?: string; reason?: string }>,
): Promise<C2cAdResult> {
  const r = await refusalOr(call);
  return r.ok ? { ok: true, ad: r.data } : r;
}

const quiet = { quiet: true } as const;

/**
 * Orders `quantity` coins from an ad, paid with `pay_type`; send the same `request_id` again to retry the same order
 * (the server answers the order it made).
 */
export function addC2cOrder(body: C2cOrderAddRequest): Promise<C2cResult> {
  return orderResult(callApiResult('ctc/order/add', body, quiet));
}

/** The buyer cancels an order that is not paid yet. */
export function cancelC2cOrder(id: number): Promise<C2cResult> {
  return orderResult(callApiResult('ctc/order/cancel', { id: String(id) }, quiet));
}

/** The buyer says the payment is made (within the payment window). */
export function payC2cOrder(id: number): Promise<C2cResult> {
  return orderResult(callApiResult('ctc/order/pay', { id: String(id) }, quiet));
}

/** The merchant releases the coins of a paid order to the buyer. */
export function releaseC2cOrder(id: number): Promise<C2cResult> {
  return orderResult(callApiResult('ctc/order/release', { id: String(id) }, quiet));
}

/** Either side opens an appeal on a paid order; the reason goes to the operator. */
export function appealC2cOrder(id: number, reason: string): Promise<C2cResult> {
  return orderResult(callApiResult('ctc/order/appeal', { id: String(id), reason }, quiet));
}

/** Whether the caller is a merchant, and the nickname buyers see. */
export function fetchC2cMerchant(opts: CallOptions = read) {
  return callApi('ctc/merchant/me', {}, opts);
}

/** The merchant's own ads, with their payment details. */
export async function fetchOwnC2cAds(opts: CallOptions = read): Promise<C2cOwnAd[] | false> {
  const r = await callApi('ctc/merchant/ads', {}, opts);
  return r === false ? false : r.ads;
}

/** Publishes a new ad, or changes an open one of the merchant's own (`id`). */
export function saveC2cAd(body: C2cAdSaveRequest): Promise<C2cAdResult> {
  return adResult(callApiResult('ctc/merchant/ad/save', body, quiet));
}

/** Closes one of the merchant's ads (its open orders still finish). */
export function closeC2cAd(id: number): Promise<C2cAdResult> {
  return adResult(callApiResult('ctc/merchant/ad/close', { id: String(id) }, quiet));
}

/** Where C2C lives: the app's own pages, or an outside address the operator set (public). */
export function fetchOtcUrl(opts: CallOptions = read) {
  return callApi('set/get_otc_url', {}, opts);
}
