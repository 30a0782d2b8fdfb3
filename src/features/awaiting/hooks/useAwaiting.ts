import { useEffect, useMemo } from 'react';
import type { C2cOrder } from '../../../../protocol/c2c';
import type { IeoOrder } from '../../../../protocol/ieo';
import { c2cOrders } from '../../../../streams/c2c/orders';
import { ieoOrders } from '../../../../streams/ieo/subscriptions';
import { useServerNow } from '../../../hooks/useServerNow';
import { useStream } from '../../../hooks/useStream';
import { type AwaitingItem, awaitingAt, waitingRecords } from '../awaiting';

/**
 * What waits for the user, live: the tab's shared `ieo` and `c2c` streams (their private topics merged with polling,
 * shared by ref-count with the IEO and C2C pages, so no second subscription), read on the server clock. The clock
 * ticks once a second only while something with a deadline waits; an item leaves when its stream says it moved on
 * (paid, lapsed, released, cancelled) or when its deadline passes on the server clock. Each stream's items show as
 * soon as that stream answers: one that fails keeps none of the other's from the user.
 */
export function useAwaiting(): { items: AwaitingItem[]; now: number } {
  const ieo = useMemo(() => ieoOrders(), []);
  const c2c = useMemo(() => c2cOrders(), []);
  const ieoList = useStream<IeoOrder[] | null>(ieo.orders$, null);
  const c2cList = useStream<C2cOrder[] | null>(c2c.orders$, null);
  const waiting = useMemo(() => waitingRecords(ieoList ?? [], c2cList ?? []), [ieoList, c2cList]);
  const now = useServerNow(waiting.some((item) => item.deadline !== null));

  // The topic carries both sides of an order, but the poll (while the socket is down) asks for the merchant's side
  // only once some view knows the user is a merchant: an order of theirs as merchant says so.
  const merchant = c2cList?.some((o) => o.role === 'merchant') ?? false;
  useEffect(() => {
    if (merchant) c2cOrders({ merchant: true });
  }, [merchant]);

  const items = useMemo(() => awaitingAt(waiting, now), [waiting, now]);
  return { items, now };
}
