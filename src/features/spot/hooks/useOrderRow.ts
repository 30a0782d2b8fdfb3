import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { cancelSpotOrder } from '../../../../core/api/spot';
import { newRequestId } from '../../../../core/ids';
import { type OrderCallResult, orderView, spotOrderMachine } from '../../../../machines/spot/order.machine';
import type { SpotOrder } from '../../../../protocol/spot';
import { traceActor } from '../../../app/actor-traces';
import { toast } from '../../../state/toasts';

/**
 * One open order's machine: the same lifecycle as the ticket's, started in the order's state. The row's cancel runs
 * through it (cancelling, then what the server answers), and every newer copy of the order the list holds (the merged
 * orders stream: topic and polling) is fed to it as an update. A cancelled order leaves the open list at once, so the
 * cancel's result is also said in a toast (the shell's polite live region): it is announced, not only gone.
 */
export function useOrderRow(order: SpotOrder) {
  const { t } = useTranslation();
  // The machine is made once; the toast reads the language in force when the answer comes.
  const said = useRef(t);
  said.current = t;
  const machine = useMemo(
    () =>
      spotOrderMachine.provide({
        actors: {
          cancelOrder: fromPromise<OrderCallResult, { id: number }>(async ({ input }) => {
            const result = await cancelSpotOrder(input.id);
            if (result.ok) toast(said.current('spot.orders.cancelled', { id: input.id }), 'success');
            return result;
          }),
        },
      }),
    [],
  );
  const [snapshot, send] = useMachine(machine, {
    input: { makeId: newRequestId, order },
    inspect: traceActor('spot-order', (c: { order: { id: number } | null }) => c.order?.id),
  });
  useEffect(() => {
    send({ type: 'ORDER_UPDATE', order });
  }, [order, send]);
  return { view: orderView(snapshot), snapshot, cancel: () => send({ type: 'CANCEL' }) };
}
