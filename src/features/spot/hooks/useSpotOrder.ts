import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { fromPromise } from 'xstate';
import { cancelSpotOrder, placeSpotOrder } from '../../../../core/api/spot';
import { newRequestId } from '../../../../core/ids';
import {
  type OrderCallResult,
  type OrderView,
  orderView,
  spotOrderMachine,
} from '../../../../machines/spot/order.machine';
import type { PlaceOrderRequest } from '../../../../protocol/spot';
import type { TradingGate } from '../../../../streams/freshness';
import type { OrderStream } from '../../../../streams/spot/orders';
import { traceActor } from '../../../app/actor-traces';
import { keys } from '../../../data/keys';
import { spotKeys } from '../keys';

/**
 * The ticket's order machine, fed by the app: the real calls, the user's order updates (the merged `orders` stream)
 * and the price gate (stale prices stop new orders). Every order change refreshes balances and the history.
 */
export function useSpotOrder(orders: OrderStream | null, gate: TradingGate) {
  const client = useQueryClient();
  const machine = useMemo(
    () =>
      spotOrderMachine.provide({
        actors: {
          placeOrder: fromPromise<OrderCallResult, PlaceOrderRequest>(({ input }) => placeSpotOrder(input)),
          cancelOrder: fromPromise<OrderCallResult, { id: number }>(({ input }) => cancelSpotOrder(input.id)),
        },
      }),
    [],
  );
  const [snapshot, send] = useMachine(machine, {
    input: { makeId: newRequestId },
    inspect: traceActor('spot-order', (c: { order: { id: number } | null }) => c.order?.id),
  });

  useEffect(() => {
    send({ type: gate.allowed ? 'PRICES_FRESH' : 'PRICES_STALE' });
  }, [gate.allowed, send]);

  useEffect(() => {
    if (!orders) return;
    const sub = orders.changes$.subscribe((change) => {
      if (change.kind === 'order') send({ type: 'ORDER_UPDATE', order: change.order });
      // Holds, fills and releases move balances; a closed order belongs to the history now.
      void client.invalidateQueries({ queryKey: keys.assetLists });
      void client.invalidateQueries({ queryKey: [...spotKeys.all, 'history'] });
    });
    return () => sub.unsubscribe();
  }, [orders, send, client]);

  const view: OrderView = orderView(snapshot);
  return { view, send };
}
