import { useMachine } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { fromPromise } from 'xstate';
import { cancelSpotOrder } from '../../../../core/api/spot';
import { newRequestId } from '../../../../core/ids';
import { type OrderCallResult, orderView, spotOrderMachine } from '../../../../machines/spot/order.machine';
import type { SpotOrder } from '../../../../protocol/spot';

/**
 * One open order's machine: the same lifecycle as the ticket's, started in the order's state. The row's cancel runs
 * through it (cancelling, then what the server answers), and every newer copy of the order the list holds (the merged
 * orders stream: topic and polling) is fed to it as an update.
 */
export function useOrderRow(order: SpotOrder) {
  const machine = useMemo(
    () =>
      spotOrderMachine.provide({
        actors: {
          cancelOrder: fromPromise<OrderCallResult, { id: number }>(({ input }) => cancelSpotOrder(input.id)),
        },
      }),
    [],
  );
  const [snapshot, send] = useMachine(machine, { input: { makeId: newRequestId, order } });
  useEffect(() => {
    send({ type: 'ORDER_UPDATE', order });
  }, [order, send]);
  return { view: orderView(snapshot), cancel: () => send({ type: 'CANCEL' }) };
}
