import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { IeoOrder } from '../../../../protocol/ieo';
import { type IeoOrderStream, ieoOrders } from '../../../../streams/ieo/subscriptions';
import { keys } from '../../../data/keys';
import { useStream } from '../../../hooks/useStream';
import { ieoKeys } from '../keys';

/** Phases in which money or coins moved (the balances change with them). */
const MOVES_MONEY: readonly IeoOrder['phase'][] = ['paid', 'locked', 'unlocked'];

/**
 * The user's subscriptions, live: the shared `ieo` stream (topic merged with polling), null until it first answers.
 * Every change makes the data it touches stale: the project's page (its subscribed total and the user's own
 * subscription), the order's own page, and the balances when money or coins moved.
 */
export function useIeoLive(): { stream: IeoOrderStream; orders: IeoOrder[] | null } {
  const client = useQueryClient();
  const stream = useMemo(() => ieoOrders(), []);
  const orders = useStream<IeoOrder[] | null>(stream.orders$, null);
  useEffect(() => {
    const sub = stream.changes$.subscribe((order) => {
      void client.invalidateQueries({ queryKey: ieoKeys.detail(order.project_id) });
      void client.invalidateQueries({ queryKey: ieoKeys.order(order.id) });
      if (MOVES_MONEY.includes(order.phase)) {
        void client.invalidateQueries({ queryKey: keys.wallet });
      }
    });
    return () => sub.unsubscribe();
  }, [stream, client]);
  return { stream, orders };
}
