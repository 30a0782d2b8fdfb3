import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { map } from 'rxjs';
import { fromPromise } from 'xstate';
import { cancelSpotOrder, placeSpotOrder } from '../../../../core/api/spot';
import { newRequestId } from '../../../../core/ids';
import type { SpotOrderRef } from '../../../../machines/spot/book.machine';
import { type SpotLive, startSpotLive } from '../../../../machines/spot/live';
import {
  type OrderCallResult,
  orderView,
  placeOrderWith,
  spotOrderMachine,
} from '../../../../machines/spot/order.machine';
import { tradingGate } from '../../../../streams/freshness';
import { coinQuotes } from '../../../../streams/market';
import { realtime } from '../../../../streams/socket';
import { spotOrders } from '../../../../streams/spot/orders';
import { traceActor } from '../../../app/actor-traces';
import { keys } from '../../../data/keys';
import { i18n } from '../../../lib/i18n';
import { toast } from '../../../state/toasts';
import { spotKeys } from '../keys';

const placeOrder = placeOrderWith(placeSpotOrder);

/** The ticket's order machine with the real calls: its own status line tells how a cancel went. */
const ticketMachine = spotOrderMachine.provide({
  actors: {
    placeOrder,
    cancelOrder: fromPromise<OrderCallResult, { id: number }>(({ input }) => cancelSpotOrder(input.id)),
  },
});

/**
 * An open order's machine with the real cancel. A cancelled order leaves the open list at once, so the result is also
 * said in a toast (the shell's polite live region): it is announced, not only gone.
 */
const rowMachine = spotOrderMachine.provide({
  actors: {
    placeOrder,
    cancelOrder: fromPromise<OrderCallResult, { id: number }>(async ({ input }) => {
      const result = await cancelSpotOrder(input.id);
      if (result.ok) toast(i18n.t('spot.orders.cancelled', { id: input.id }), 'success');
      return result;
    }),
  },
});

/**
 * The spot orders' live controller (machines/spot/live.ts) with the app's streams and calls, started while the page
 * shows. Null before the first effect; the page draws its loading state until then.
 */
export function useSpotLive(): SpotLive | null {
  const client = useQueryClient();
  const [live, setLive] = useState<SpotLive | null>(null);
  useEffect(() => {
    const started = startSpotLive({
      orders: spotOrders(),
      fresh$: tradingGate(coinQuotes().freshness).pipe(map((gate) => gate.allowed)),
      reconnected$: realtime().reconnected$,
      ticket: ticketMachine,
      row: rowMachine,
      makeId: newRequestId,
      onChange: () => afterChange(client),
      inspect: traceActor('spot-order', (c: { order: { id: number } | null }) => c.order?.id, 'spotOrder'),
    });
    setLive(started);
    return () => started.stop();
  }, [client]);
  return live;
}

/** Holds, fills and releases move balances; a closed order belongs to the history now. */
function afterChange(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: keys.assetLists });
  void client.invalidateQueries({ queryKey: [...spotKeys.all, 'history'] });
}

/**
 * What one order machine of the live book shows (the ticket's or a row's), and how to tell it what the user did. The
 * machine lives in the book, fed by the streams; the component draws it.
 */
export function useSpotOrderActor(ref: SpotOrderRef) {
  const snapshot = useSelector(ref, (s) => s);
  return { view: orderView(snapshot), snapshot, send: ref.send };
}
