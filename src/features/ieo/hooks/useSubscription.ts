import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { EMPTY, merge } from 'rxjs';
import { fromPromise } from 'xstate';
import { fetchIeoOrder, payIeoOrder } from '../../../../core/api/ieo';
import { serverClock } from '../../../../core/clock';
import {
  ieoSubscriptionMachine,
  type SubscriptionEvent,
  subscriptionView,
} from '../../../../machines/ieo/subscription.machine';
import { liveOrder } from '../../../../machines/live-order';
import type { IeoOrder } from '../../../../protocol/ieo';
import type { IeoOrderStream } from '../../../../streams/ieo/subscriptions';
import { traceActor } from '../../../app/actor-traces';
import { keys } from '../../../data/keys';
import { queryData$ } from '../../../data/query-stream';
import { ieoKeys } from '../keys';
import { ieoOrderQuery } from './queries';

/**
 * One subscription's machine (machines/ieo/subscription.machine.ts) with the app's calls and sources: the real calls
 * (ieo/pay, and ieo/order while a step is being processed), the server clock's offset, and its `live` actor
 * (machines/live-order.ts): every copy of the order from the `ieo` stream, and from the page's own query of it when
 * the page `loaded` it by that query (ieoOrderQuery; a list row has no query of its own), and the clock's steps. A
 * payment refreshes the balance and the project.
 */
export function useSubscription(order: IeoOrder, stream: IeoOrderStream, now: number, loaded = false) {
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
          live: liveOrder<IeoOrder, SubscriptionEvent>((id) => ({
            copies$: merge(loaded ? queryData$(client, ieoOrderQuery(id)) : EMPTY, stream.order$(id)),
            clock: serverClock,
            order: (o) => ({ type: 'ORDER', order: o }),
            clockStep: (offset) => ({ type: 'CLOCK', offset }),
          })),
        },
      }),
    [client, stream, loaded],
  );
  const [snapshot, send] = useMachine(machine, {
    input: { order, localNow: serverClock.localNow, offset: serverClock.offset() },
    inspect: traceActor('ieo-subscription', (c: { order: { id: number } }) => c.order.id),
  });

  return { view: subscriptionView(snapshot, now), send, snapshot };
}
