import type { Kysely } from 'kysely';
import { IEO_ORDER_EVENT, IEO_TOPIC, type IeoTopicMessage, ieoOrder, ieoTopicMessage } from '../../../protocol/ieo';
import type { Database } from '../../platform/db/schema';
import type { PrivateTopic } from '../../platform/realtime/private-topics';
import { ownOrders } from './projects';

/** The private `ieo` topic: the user's subscriptions, then every change of any (allotted, paid, listed, unlocked). */
export function ieoTopic(db: Kysely<Database>): PrivateTopic<IeoTopicMessage> {
  return {
    name: IEO_TOPIC,
    schema: ieoTopicMessage,
    summary: 'IEO subscriptions: all of them, then every change.',
    snapshot: async (userId) => ({ kind: 'snapshot', orders: await ownOrders(db, userId, { limit: 100 }) }),
    events: [IEO_ORDER_EVENT],
    fromEvent: (_kind, data) => ({ kind: 'order', order: ieoOrder.parse(data) }),
  };
}
