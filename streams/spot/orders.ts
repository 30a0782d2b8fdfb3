import { pollOpenOrders } from '../../core/api/spot';
import { ORDERS_TOPIC, type OrdersTopicMessage, ordersTopicMessage, type SpotOrder } from '../../protocol/spot';
import {
  createPrivateRecordStream,
  type PrivateRecordStream,
  type PrivateRecordsSource,
  type RecordKind,
  type RecordStreamOptions,
} from '../private-records';
import { realtime } from '../socket';

/**
 * The user's spot orders: the private `orders` topic (a snapshot of the open orders, then each changed order)
 * merged with polling of coin/trade/list (list=open), as streams/private-records.ts merges any private records.
 */

/** What this stream needs of the tab's socket (RealtimeSocket, or a fake in tests). */
export type OrdersSource = PrivateRecordsSource;

export const isOpenOrder = (order: SpotOrder): boolean => order.state === 'waiting' || order.state === 'pending';

export type OrderStreamOptions = RecordStreamOptions<SpotOrder>;

export type OrderChange = { kind: 'order'; order: SpotOrder } | { kind: 'closed' };

/**
 * The open orders (waiting and pending), newest first, shared and replayed to late observers; and each order as it
 * changes (new, filled, cancelled), once per change, `closed` when open orders left unseen.
 */
export type OrderStream = PrivateRecordStream<SpotOrder, OrderChange>;

const orders: RecordKind<SpotOrder, OrdersTopicMessage, OrderChange> = {
  topic: ORDERS_TOPIC,
  schema: ordersTopicMessage,
  read: (message) => (message.kind === 'snapshot' ? { open: message.orders } : { record: message.order }),
  isOpen: isOpenOrder,
  change: (order) => ({ kind: 'order', order }),
};

export function createOrderStream(options: OrderStreamOptions): OrderStream {
  return createPrivateRecordStream(orders, options);
}

let shared: OrderStream | undefined;

/** The tab's order stream, created on first use and shared by every view. */
export function spotOrders(): OrderStream {
  shared ??= createOrderStream({ source: realtime(), poll: pollOpenOrders });
  return shared;
}
