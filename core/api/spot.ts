import type { z } from 'zod/mini';
import {
  type OrderList,
  type PlaceOrderRequest,
  type SpotOrder,
  type SpotOrderPage,
  spotCalls,
} from '../../protocol/spot';
import { areaApi, type CallOptions, type Refusal, refusal } from './client';

const { callApi, callApiResult } = areaApi(spotCalls);

/**
 * Spot trading (coin/trade*). Reads show no global loading bar (the page shows its own); the open-orders poll runs
 * beside the socket, so it is quiet: a failed poll is simply retried on schedule.
 */
const read = { loading: false } as const;
const background = { quiet: true, loading: false } as const;

export type SpotConfig = z.output<(typeof spotCalls)['coin/trade/config']['response']>;

/** The terms in force for new orders and every tradable pair with its steps. */
export function fetchSpotConfig(opts: CallOptions = read): Promise<SpotConfig | false> {
  return callApi('coin/trade/config', {}, opts);
}

/**
 * What a placement or a cancellation answered. `answered` is false when no answer came at all (offline, timeout, a
 * body that is not an envelope): the server may still have acted, so a retry must carry the same request id.
 */
export type SpotOrderResult = { ok: true; order: SpotOrder } | Refusal;

async function orderResult(call: ReturnType<typeof callApiResult<'coin/trade'>>): Promise<SpotOrderResult> {
  const r = await call;
  if (r.ok) return { ok: true, order: r.data };
  return refusal(r);
}

/**
 * Places an order; send the same `request_id` again to retry the same order (the server applies one id once).
 * Quiet: the ticket shows the refusal beside the submit button instead of a toast.
 */
export function placeSpotOrder(body: PlaceOrderRequest): Promise<SpotOrderResult> {
  return orderResult(callApiResult('coin/trade', body, { quiet: true }));
}

/** Cancels a resting order of the user's; the answer is the order in its new state. */
export function cancelSpotOrder(id: number): Promise<SpotOrderResult> {
  return orderResult(callApiResult('coin/trade/cancel', { id: String(id) }, { quiet: true }));
}

export interface OrderPageQuery {
  list: OrderList;
  symbol?: string | undefined;
  beforeId?: number | null | undefined;
  limit?: number | undefined;
}

/** One page of the user's open orders or history (completed and cancelled), newest first. */
export function fetchSpotOrders(query: OrderPageQuery, opts: CallOptions = read): Promise<SpotOrderPage | false> {
  return callApi(
    'coin/trade/list',
    {
      list: query.list,
      limit: String(query.limit ?? 20),
      ...(query.symbol ? { symbol: query.symbol } : {}),
      ...(query.beforeId ? { before_id: String(query.beforeId) } : {}),
    },
    opts,
  );
}

/** The open orders, polled beside the private `orders` topic (streams/spot/orders.ts). */
export async function pollOpenOrders(): Promise<SpotOrder[] | false> {
  const r = await fetchSpotOrders({ list: 'open', limit: 100 }, background);
  return r === false ? false : r.orders;
}
