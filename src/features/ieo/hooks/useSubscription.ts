import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useCallback, useMemo } from 'react';
import { fromPromise } from 'xstate';
import { fetchIeoOrder, payIeoOrder } from '../../../../core/api/ieo';
import { serverClock } from '../../../../core/clock';
import { ieoSubscriptionMachine, subscriptionView } from '../../../../machines/ieo/subscription.machine';
import type { IeoOrder } from '../../../../protocol/ieo';
import type { IeoOrderStream } from '../../../../streams/ieo/subscriptions';
import { traceActor } from '../../../app/actor-traces';
import { keys } from '../../../data/keys';
import { useLiveOrder } from '../../../hooks/useLiveOrder';
import { ieoKeys } from '../keys';

/**
 * One subscription's machine (machines/ieo/subscription.machine.ts), fed by the app: the real calls (ieo/pay, and
 * ieo/order while a step is being processed), the server clock's offset, and every newer copy of the order (the one
 * the page loaded, and the `ieo` stream's). A payment refreshes the balance and the project.
 */
export function useSubscription(order: IeoOrder, stream: IeoOrderStream | null, now: number) {
  const client = useQueryClient();
  const machine = useMemo(
    () =>
      ieoSubscriptionMachine.provide({
        actors: {
          payOrder: fromPromise(async ({ input }: { input: { id: number } }) => {
            const r = await payIeoOrder(input.id);
            void client.invalidateQueries({ queryKey: keys.wallet });
            void client.invalidateQueries({ queryKey: ieoKeys.all });
            return r;
          }),
          // Asked every few seconds while a step is processed: quiet, a failure is simply asked again.
          fetchOrder: fromPromise(({ input }: { input: { id: number } }) =>
            fetchIeoOrder(input.id, { quiet: true, loading: false }),
          ),
        },
      }),
    [client],
  );
  const [snapshot, send] = useMachine(machine, {
    input: { order, localNow: serverClock.localNow, offset: serverClock.offset() },
    inspect: traceActor('ieo-subscription', (c: { order: { id: number } }) => c.order.id),
  });

  const onOrder = useCallback((o: typeof order) => send({ type: 'ORDER', order: o }), [send]);
  const onClockStep = useCallback((offset: number) => send({ type: 'CLOCK', offset }), [send]);
  useLiveOrder(order, stream, onOrder, onClockStep);

  return { view: subscriptionView(snapshot, now), send, snapshot };
}
