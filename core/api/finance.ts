import {
  type FinanceBuyRequest,
  type FinanceConfig,
  type FinanceFamily,
  type FinanceOrder,
  type FinanceOrderPage,
  type FinanceOrderState,
  type FinanceProduct,
  type FinanceProductInfo,
  type FinanceReport,
  financeCalls,
} from '../../protocol/finance';
import { areaApi, type CallOptions, type Refusal, refusal } from './client';

const { callApi, callApiResult } = areaApi(financeCalls);

/**
 * Finance products (lh/*): trust products (lh/deposit/*) and hosting products (lh/send/*), one rule for both. Reads
 * show no global loading bar (the pages show their own spinner or pull indicator); failures are toasted as usual.
 */
const read = { loading: false } as const;

/** The calls that differ per family; early redemption (lh/deposit/order/cancel) serves both. */
const FAMILY_CALLS = {
  trust: {
    config: 'lh/deposit/config',
    product: 'lh/deposit/product_info',
    orders: 'lh/deposit/order',
    buy: 'lh/deposit',
  },
  hosting: {
    config: 'lh/send/config',
    product: 'lh/send/product_info',
    orders: 'lh/send/order_list',
    buy: 'lh/send/order',
  },
} as const;

/** The family's products on offer and its default early-redemption rule (public). */
export function fetchFinanceConfig(family: FinanceFamily, opts: CallOptions = read): Promise<FinanceConfig | false> {
  return callApi(FAMILY_CALLS[family].config, {}, opts);
}

/** One product's terms and the caller's trust account balance in its currency. */
export function fetchFinanceProduct(
  family: FinanceFamily,
  id: number,
  opts: CallOptions = read,
): Promise<FinanceProductInfo | false> {
  return callApi(FAMILY_CALLS[family].product, { id: String(id) }, opts);
}

/** The caller's totals per currency over both families. */
export function fetchFinanceReport(opts: CallOptions = read): Promise<FinanceReport | false> {
  return callApi('lh/deposit/report', {}, opts);
}

/** The hosting products the operator recommends (on sale only; an operator's choice, not a ranking by return). */
export async function fetchRecommendedProducts(opts: CallOptions = read): Promise<FinanceProduct[] | false> {
  const r = await callApi('lh/send/get_recommend', {}, opts);
  return r === false ? false : r.products;
}

export interface FinanceOrdersQuery {
  family: FinanceFamily;
  state: FinanceOrderState;
  beforeId?: number | null | undefined;
  limit?: number | undefined;
}

/** One page of the caller's orders of one family and tab, newest first. */
export function fetchFinanceOrders(
  query: FinanceOrdersQuery,
  opts: CallOptions = read,
): Promise<FinanceOrderPage | false> {
  return callApi(
    FAMILY_CALLS[query.family].orders,
    {
      state: query.state,
      limit: String(query.limit ?? 20),
      ...(query.beforeId ? { before_id: String(query.beforeId) } : {}),
    },
    opts,
  );
}

/**
 * What a purchase or a redemption answered. `answered` is false when no answer came at all (offline, timeout, a
 * body that is not an envelope): the server may still have acted, so a retried purchase must carry the same id.
 */
export type FinanceResult = { ok: true; order: FinanceOrder } | Refusal;

async function orderResult(call: ReturnType<typeof callApiResult<'lh/deposit'>>): Promise<FinanceResult> {
  const r = await call;
  if (r.ok) return { ok: true, order: r.data };
  return refusal(r);
}

/**
 * Buys a product of the family; send the same `request_id` again to retry the same purchase (the server applies one
 * id once and answers the order it placed). Quiet: the buy page shows the refusal beside its button.
 */
export function buyFinanceProduct(family: FinanceFamily, body: FinanceBuyRequest): Promise<FinanceResult> {
  return orderResult(callApiResult(FAMILY_CALLS[family].buy, body, { quiet: true }));
}

/** Redeems a running order of either family early, at the penalty shown; answers the order as redeemed. */
export function redeemFinanceOrder(id: number): Promise<FinanceResult> {
  return orderResult(callApiResult('lh/deposit/order/cancel', { id: String(id) }, { quiet: true }));
}
