import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { merge } from 'rxjs';
import { fromPromise } from 'xstate';
import {
  appealC2cOrder,
  type C2cResult,
  cancelC2cOrder,
  fetchC2cOrder,
  payC2cOrder,
  releaseC2cOrder,
} from '../../../../core/api/c2c';
import { serverClock, serverNow } from '../../../../core/clock';
import { type C2cOrderEvent, c2cOrderMachine, c2cOrderView } from '../../../../machines/c2c/order.machine';
import { liveOrder } from '../../../../machines/live-order';
import type { C2cOrder } from '../../../../protocol/c2c';
import type { C2cOrderStream } from '../../../../streams/c2c/orders';
import { traceActor } from '../../../app/actor-traces';
import { keys } from '../../../data/keys';
import { queryData$ } from '../../../data/query-stream';
import { c2cKeys } from '../keys';
import { c2cOrderQuery } from './queries';

/**
 * One order's machine (machines/c2c/order.machine.ts) with the app's calls and sources: the real calls (ctc/order/pay,
 * cancel, release, appeal, and ctc/order/info while the expiry is awaited), the tab's server clock as its time
 * source, and its `live` actor (machines/live-order.ts): every copy of the order (the page's query, and the `c2c`
 * stream's) and the clock's steps. An action refreshes what it touched: the order's views, the ad, and the balances.
 */
export function useOrderMachine(order: C2cOrder, stream: C2cOrderStream, now: number) {
  const client = useQueryClient();
  const machine = useMemo(() => {
    const after = (call: (input: { id: number; reason: string }) => Promise<C2cResult>) =>
      fromPromise(async ({ input }: { input: { id: number; reason: string } }) => {
        const r = await call(input);
        void client.invalidateQueries({ queryKey: c2cKeys.all });
        void client.invalidateQueries({ queryKey: keys.wallet });
        return r;
      });
    return c2cOrderMachine.provide({
      actors: {
        payOrder: after(({ id }) => payC2cOrder(id)),
        cancelOrder: after(({ id }) => cancelC2cOrder(id)),
        releaseOrder: after(({ id }) => releaseC2cOrder(id)),
        appealOrder: after(({ id, reason }) => appealC2cOrder(id, reason)),
        // Asked every few seconds while the expiry is awaited: quiet, a failure is simply asked again.
        fetchOrder: fromPromise(({ input }: { input: { id: number } }) =>
          fetchC2cOrder(input.id, { quiet: true, loading: false }),
        ),
        live: liveOrder<C2cOrder, C2cOrderEvent>((id) => ({
          copies$: merge(queryData$(client, c2cOrderQuery(id)), stream.order$(id)),
          clock: serverClock,
          order: (o) => ({ type: 'ORDER', order: o }),
          clockStep: () => ({ type: 'CLOCK' }),
        })),
      },
    });
  }, [client, stream]);
  const [snapshot, send] = useMachine(machine, {
    input: { order, now: serverNow },
    inspect: traceActor('c2c-order', (c: { order: { id: number } }) => c.order.id),
  });

  return { view: c2cOrderView(snapshot, now), send, snapshot };
}
