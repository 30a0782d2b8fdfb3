import type { Kysely } from 'kysely';
import {
  ORDERS_TOPIC,
  type OrdersTopicMessage,
  ordersTopicMessage,
  SPOT_ORDER_EVENT,
  spotOrder,
} from '../../../protocol/spot';
import type { Database } from '../../platform/db/schema';
import type { PrivateTopic } from '../../platform/realtime/private-topics';
import { openOrders } from './orders';

/** The private `orders` topic: the user's open orders, then every change of any of their orders. */
export function ordersTopic(db: Kysely<Database>): PrivateTopic<OrdersTopicMessage> {
  return {
    name: ORDERS_TOPIC,
    schema: ordersTopicMessage,
    summary: 'Spot orders: the open ones, then every change.',
    snapshot: async (userId) => ({ kind: 'snapshot', orders: await openOrders(db, userId) }),
    events: [SPOT_ORDER_EVENT],
    fromEvent: (_kind, data) => ({ kind: 'order', order: spotOrder.parse(data) }),
  };
}
