import { C2C_ORDER_EVENT, C2C_TOPIC, type C2cTopicMessage, c2cTopicMessage } from '../../../protocol/c2c';
import type { PrivateTopic } from '../../platform/realtime/private-topics';
import { openOrders } from './orders';
import { type C2cServices, orderOfEvent } from './services';

/**
 * The private `c2c` topic: the caller's open orders on both sides, then every change of any of their orders (each
 * side gets its own event, with its own `role`). The events keep the payment details sealed; they are opened here.
 */
export function c2cTopic(s: C2cServices): PrivateTopic<C2cTopicMessage> {
  return {
    name: C2C_TOPIC,
    schema: c2cTopicMessage,
    summary: "C2C orders on either side: the open ones, then every change of any of the user's orders.",
    snapshot: async (userId) => ({ kind: 'snapshot', orders: await openOrders(s, userId) }),
    events: [C2C_ORDER_EVENT],
    // An event that does not open (another data key) fails the schema and is skipped for this topic only.
    fromEvent: (_kind, data) => ({ kind: 'order', order: orderOfEvent(data, s.vault) }) as C2cTopicMessage,
  };
}
