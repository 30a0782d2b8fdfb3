import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { C2cOrder } from '../../../../protocol/c2c';
import { type C2cOrderStream, c2cOrders } from '../../../../streams/c2c/orders';
import { keys } from '../../../data/keys';
import { useStream } from '../../../hooks/useStream';
import { c2cKeys } from '../keys';

/**
 * The user's C2C orders of both sides, live: the shared `c2c` stream (topic merged with polling), null until it first
 * answers. Every change makes the data it touches stale: the order's own page, the order lists, the ads (an order
 * takes from an ad's coins, a cancelled one gives them back) and the balances (escrow held, released or returned).
 * An open order that ended unseen makes every order view ask again. `merchant` lets the poll ask for that side too.
 */
export function useC2cLive(merchant = false): { stream: C2cOrderStream; orders: C2cOrder[] | null } {
  const client = useQueryClient();
  const stream = useMemo(() => c2cOrders({ merchant }), [merchant]);
  const orders = useStream<C2cOrder[] | null>(stream.orders$, null);
  useEffect(() => {
    const sub = stream.changes$.subscribe((change) => {
      if (change.kind === 'dropped') {
        void client.invalidateQueries({ queryKey: c2cKeys.order(change.id) });
      } else {
        void client.invalidateQueries({ queryKey: c2cKeys.order(change.order.id) });
        void client.invalidateQueries({ queryKey: c2cKeys.ad(change.order.ad_id) });
      }
      void client.invalidateQueries({ queryKey: c2cKeys.allOrders });
      void client.invalidateQueries({ queryKey: c2cKeys.allAds });
      void client.invalidateQueries({ queryKey: c2cKeys.ownAds });
      void client.invalidateQueries({ queryKey: keys.wallet });
    });
    return () => sub.unsubscribe();
  }, [stream, client]);
  return { stream, orders };
}
