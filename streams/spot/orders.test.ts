import { BehaviorSubject, type Observable, Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import type { OrdersTopicMessage, SpotOrder } from '../../protocol/spot';
import type { ConnectionState, PrivateTopicMessage } from '../socket';
import { createOrderStream, OrderBook, type OrderChange, type OrdersSource } from './orders';

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

/** The socket as this stream sees it: the test plays the server's `me:orders` messages and the connection. */
class FakeOrdersSource implements OrdersSource {
  readonly state = new BehaviorSubject<ConnectionState>('connected');
  readonly state$ = this.state;
  readonly topic = new Subject<PrivateTopicMessage<unknown>>();
  readonly names: string[] = [];
  private seq = 0;

  privateTopic<T>(name: string, _schema: z.ZodType<T>): Observable<PrivateTopicMessage<T>> {
    this.names.push(name);
    return this.topic as unknown as Observable<PrivateTopicMessage<T>>;
  }

  send(data: OrdersTopicMessage, ts: number): void {
    this.topic.next({ kind: data.kind === 'snapshot' ? 'snapshot' : 'update', seq: this.seq++, ts, data });
  }
}

describe('the order book', () => {
  it('keeps the newer update per order and drops repeats and late news', () => {
    const book = new OrderBook();
    expect(book.take(order(1, 'waiting', 10))).toBe(true);
    expect(book.take(order(1, 'waiting', 10))).toBe(false);
    expect(book.take(order(1, 'pending', 20))).toBe(true);
    expect(book.take(order(1, 'waiting', 15))).toBe(false);
    expect(book.open().map((o) => o.state)).toEqual(['pending']);
    expect(book.take(order(1, 'completed', 30))).toBe(true);
    expect(book.open()).toEqual([]);
  });

  it('closes open orders a full list no longer holds, unless they changed after the list was made', () => {
    const book = new OrderBook();
    book.take(order(1, 'pending', 10));
    book.take(order(2, 'waiting', 50));
    const { dropped } = book.takeOpenList([], 40);
    expect(dropped).toBe(true);
    // Order 2 was placed after the list was asked for: it stays.
    expect(book.open().map((o) => o.id)).toEqual([2]);
  });
});

describe('the order stream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(polls: (readonly SpotOrder[] | false)[]) {
    const source = new FakeOrdersSource();
    const poll = vi.fn(async () => polls.shift() ?? false);
    let clock = 1_000;
    const stream = createOrderStream({ source, poll, pollWhileUpMs: 30_000, pollWhileDownMs: 2_000, now: () => clock });
    const open: SpotOrder[][] = [];
    const changes: OrderChange[] = [];
    const subs = [stream.changes$.subscribe((c) => changes.push(c)), stream.open$.subscribe((o) => open.push(o))];
    return {
      source,
      poll,
      open,
      changes,
      setClock: (t: number) => {
        clock = t;
      },
      stop: () => {
        for (const s of subs) s.unsubscribe();
      },
    };
  }

  it('subscribes to me:orders, merges it with the poll and drops duplicates', async () => {
    const t = setup([[order(1, 'waiting', 100)]]);
    expect(t.source.names).toEqual(['orders']);
    await vi.advanceTimersByTimeAsync(0);
    // The poll brought order 1; the snapshot brings the same order again (a repeat) and order 2.
    expect(t.open.at(-1)?.map((o) => o.id)).toEqual([1]);
    t.source.send({ kind: 'snapshot', orders: [order(1, 'waiting', 100), order(2, 'pending', 120)] }, 130);
    expect(t.open.at(-1)?.map((o) => o.id)).toEqual([2, 1]);
    expect(t.changes.map((c) => (c.kind === 'order' ? `${c.order.id}:${c.order.state}` : c.kind))).toEqual([
      '1:waiting',
      '2:pending',
    ]);
    // Order 1 fills: one change, and it leaves the open list; the same update again is dropped.
    t.source.send({ kind: 'order', order: order(1, 'completed', 200) }, 200);
    t.source.send({ kind: 'order', order: order(1, 'completed', 200) }, 201);
    expect(t.open.at(-1)?.map((o) => o.id)).toEqual([2]);
    expect(t.changes.filter((c) => c.kind === 'order' && c.order.id === 1)).toHaveLength(2);
    t.stop();
  });

  it('a poll older than a socket update does not bring an order back', async () => {
    const t = setup([[], [order(3, 'pending', 100)]]);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.open.at(-1)).toEqual([]);
    t.source.send({ kind: 'order', order: order(3, 'pending', 100) }, 100);
    t.source.send({ kind: 'order', order: order(3, 'cancelled', 300) }, 300);
    t.setClock(400);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(t.poll).toHaveBeenCalledTimes(2);
    expect(t.open.at(-1)).toEqual([]);
    t.stop();
  });

  it('polls often while the socket is down and reports orders that closed unseen', async () => {
    const t = setup([[order(4, 'pending', 100)], [], []]);
    t.source.state.next('reconnecting');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.open.at(-1)?.map((o) => o.id)).toEqual([4]);
    t.setClock(5_000);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(t.poll.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(t.open.at(-1)).toEqual([]);
    expect(t.changes.at(-1)).toEqual({ kind: 'closed' });
    t.stop();
  });

  it('an empty first list still tells the view it is loaded', async () => {
    const t = setup([[]]);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.open).toEqual([[]]);
    t.stop();
  });
});
