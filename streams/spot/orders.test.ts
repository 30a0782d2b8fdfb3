import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OrdersTopicMessage, SpotOrder } from '../../protocol/spot';
import { RealtimeSocket } from '../socket';
import { FakeSocket } from '../testing';
import { createOrderStream, type OrderChange } from './orders';

// The merging of topic and poll is tested once, in streams/private-records.test.ts; here only what is spot's: the
// `me:orders` topic and its messages, which orders are open, and the change the views get.

const order = (id: number, state: SpotOrder['state'], updatedAt: number): SpotOrder => ({
  id,
  symbol: 'BTC',
  side: 'buy',
  type: 'limit',
  mode: 'quantity',
  qty: '0.01',
  amount: null,
  price: '100',
  fee_rate: '0.001',
  held: '1.001',
  state,
  cancel_reason: state === 'cancelled' ? 'user' : null,
  fill: null,
  request_id: `r${id}`,
  created_at: id * 10,
  updated_at: updatedAt,
});

describe('the order stream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads me:orders: waiting and pending orders are open, filled and cancelled ones leave', async () => {
    const fake = new FakeSocket();
    const socket = new RealtimeSocket({ createSocket: () => fake, visibility: null, clock: null });
    fake.open();
    const stream = createOrderStream({ source: socket, poll: async () => false, now: () => 0 });
    const open: number[][] = [];
    const changes: OrderChange[] = [];
    const subs = [
      stream.changes$.subscribe((c) => changes.push(c)),
      stream.open$.subscribe((o) => open.push(o.map((x) => x.id))),
    ];
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.subscribes()).toEqual(['me:orders']);
    fake.ack('subscribe', { ok: true, topic: 'me:orders' });
    let seq = 0;
    const send = (data: OrdersTopicMessage, ts: number) =>
      fake.pushPrivate({
        topic: 'me:orders',
        kind: data.kind === 'snapshot' ? 'snapshot' : 'update',
        seq: ++seq,
        ts,
        data,
      });

    send({ kind: 'snapshot', orders: [order(1, 'waiting', 10), order(2, 'pending', 20)] }, 30);
    send({ kind: 'order', order: order(3, 'waiting', 40) }, 40);
    send({ kind: 'order', order: order(1, 'completed', 50) }, 50);
    send({ kind: 'order', order: order(2, 'cancelled', 60) }, 60);
    expect(open).toEqual([[2, 1], [3, 2, 1], [3, 2], [3]]);
    expect(changes.map((c) => (c.kind === 'order' ? `${c.order.id}:${c.order.state}` : c.kind))).toEqual([
      '1:waiting',
      '2:pending',
      '3:waiting',
      '1:completed',
      '2:cancelled',
    ]);
    for (const s of subs) s.unsubscribe();
  });
});
