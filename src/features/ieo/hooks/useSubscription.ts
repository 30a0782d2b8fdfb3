import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { fromPromise } from 'xstate';
import { fetchIeoOrder, payIeoOrder } from '../../../../core/api/ieo';
import { serverClock } from '../../../../core/clock';
import { ieoSubscriptionMachine, subscriptionView } from '../../../../machines/ieo/subscription.machine';
import type { IeoOrder } from '../../../../protocol/ieo';
import type { IeoOrderStream } from '../../../../streams/ieo/subscriptions';
import { keys } from '../../../data/keys';
import { ieoKeys } from '../keys';

/** A clock estimate that moved less than this is not worth setting the timers again for. */
const CLOCK_STEP_MS = 250;

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
  });

  useEffect(() => {
    send({ type: 'ORDER', order });
  }, [order, send]);

  useEffect(() => {
    if (!stream) return;
    const sub = stream.order$(order.id).subscribe((o) => send({ type: 'ORDER', order: o }));
    return () => sub.unsubscribe();
  }, [stream, order.id, send]);

  const sentOffset = useRef(serverClock.offset());
  useEffect(
    () =>
      serverClock.subscribe((offset) => {
        if (Math.abs(offset - sentOffset.current) < CLOCK_STEP_MS) return;
        sentOffset.current = offset;
        send({ type: 'CLOCK', offset });
      }),
    [send],
  );

  return { view: subscriptionView(snapshot, now), send, snapshot };
}
