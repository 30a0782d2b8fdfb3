// @vitest-environment node
import { BehaviorSubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { SpotOrder } from '../../protocol/spot';
import type { OrderChange } from '../../streams/spot/orders';
import { type SpotLive, startSpotLive } from './live';
import { type OrderCallResult, orderView, placeOrderWith, spotOrderMachine } from './order.machine';
import { counter, draft, order } from './order.model';

/**
 * The live spot book outside React: the orders stream drives the book machine (one order machine per open order,
 * told each newer copy, stopped when the order leaves the open list), the gate reaches every machine, the ticket
 * hears each change and the page each change once. Subjects stand for the streams; the calls are the test's.
 */

function rig() {
  const open$ = new BehaviorSubject<SpotOrder[]>([]);
  const changes$ = new Subject<OrderChange>();
  const fresh$ = new BehaviorSubject<boolean>(false);
  const reconnected$ = new Subject<void>();
  const news: OrderChange[] = [];
  const placed: string[] = [];
  const cancels: number[] = [];
  const machine = spotOrderMachine.provide({
    actors: {
      placeOrder: placeOrderWith(async (request) => {
        placed.push(request.request_id);
        return new Promise<OrderCallResult>(() => {});
      }),
      cancelOrder: fromPromise<OrderCallResult, { id: number }>(async ({ input }) => {
        cancels.push(input.id);
        return new Promise<OrderCallResult>(() => {});
      }),
    },
  });
  const live = startSpotLive({
    orders: { open$, changes$ },
    fresh$,
    reconnected$,
    ticket: machine,
    row: machine,
    makeId: counter(),
    onChange: (c) => news.push(c),
  });
  return { open$, changes$, fresh$, reconnected$, live, news, placed, cancels };
}

const rowOf = (live: SpotLive, id: number) => live.actor.getSnapshot().context.rows[id]?.ref;
const pending = (id: number, at = 2_000) => order('pending', at, { id, request_id: `other-${id}` });

describe('the live spot book', () => {
  it("keeps one order machine per open order, in the order's state, and stops those that leave", () => {
    const { open$, live } = rig();
    expect(live.actor.getSnapshot().context.open).toEqual([]);
    open$.next([pending(7), order('waiting', 1_500, { id: 8, request_id: 'other-8' })]);
    expect(live.actor.getSnapshot().context.open?.map((o) => o.id)).toEqual([7, 8]);
    const row7 = rowOf(live, 7);
    expect(row7 && orderView(row7.getSnapshot()).phase).toBe('pending');
    const row8 = rowOf(live, 8);
    expect(row8 && orderView(row8.getSnapshot()).phase).toBe('waiting');
    open$.next([pending(7)]);
    expect(rowOf(live, 8)).toBeUndefined();
    expect(row8?.getSnapshot().status).toBe('stopped');
    expect(rowOf(live, 7)).toBe(row7);
    live.stop();
    expect(row7?.getSnapshot().status).toBe('stopped');
    expect(live.actor.getSnapshot().status).toBe('stopped');
  });

  it("tells a row each newer copy of its order, and the row's cancel runs through its machine", () => {
    const { open$, fresh$, live, cancels } = rig();
    fresh$.next(true);
    open$.next([order('waiting', 1_500, { id: 7, request_id: 'other-7' })]);
    open$.next([pending(7)]);
    const row = rowOf(live, 7);
    expect(row && orderView(row.getSnapshot()).phase).toBe('pending');
    row?.send({ type: 'CANCEL' });
    expect(row && orderView(row.getSnapshot()).phase).toBe('cancelling');
    expect(cancels).toEqual([7]);
    live.stop();
  });

  it('tells the gate to the ticket and every row; an order that appears while fresh starts fresh', () => {
    const { open$, fresh$, live } = rig();
    open$.next([pending(7)]);
    const ticket = live.actor.getSnapshot().context.ticket;
    const row7 = rowOf(live, 7);
    expect(orderView(ticket.getSnapshot()).submitEnabled).toBe(false);
    expect(row7 && orderView(row7.getSnapshot()).blockedByStalePrices).toBe(false);
    fresh$.next(true);
    expect(orderView(ticket.getSnapshot()).submitEnabled).toBe(true);
    expect(live.actor.getSnapshot().context.fresh).toBe(true);
    open$.next([pending(7), pending(9)]);
    const prices = (ref: typeof row7) => (ref?.getSnapshot().value as { prices?: string } | undefined)?.prices;
    expect(prices(row7)).toBe('fresh');
    expect(prices(rowOf(live, 9))).toBe('fresh');
    fresh$.next(false);
    expect(prices(rowOf(live, 9))).toBe('stale');
    expect(orderView(ticket.getSnapshot()).submitEnabled).toBe(false);
    live.stop();
  });

  it('tells the ticket the change of the order it placed, and the page every change once', () => {
    const { changes$, fresh$, live, news, placed } = rig();
    fresh$.next(true);
    const ticket = live.actor.getSnapshot().context.ticket;
    ticket.send({ type: 'SUBMIT', draft });
    expect(placed).toEqual(['req-1']);
    const stranger = order('completed', 3_000, { id: 5, request_id: 'other-5' });
    changes$.next({ kind: 'order', order: stranger });
    expect(orderView(ticket.getSnapshot()).order).toBeNull();
    // Before the placement answers, the ticket knows its order by the request id it sent.
    const ours = order('pending', 2_000, { id: 7, request_id: 'req-1' });
    changes$.next({ kind: 'order', order: ours });
    changes$.next({ kind: 'closed' });
    expect(orderView(ticket.getSnapshot()).order).toBe(ours);
    expect(news).toEqual([{ kind: 'order', order: stranger }, { kind: 'order', order: ours }, { kind: 'closed' }]);
    live.stop();
  });

  it('asks again under the same request id when the socket returns while the placement waits for its answer', () => {
    const { fresh$, reconnected$, live, placed } = rig();
    fresh$.next(true);
    const ticket = live.actor.getSnapshot().context.ticket;
    ticket.send({ type: 'SUBMIT', draft });
    expect(placed).toEqual(['req-1']);
    reconnected$.next();
    expect(placed).toEqual(['req-1', 'req-1']);
    live.stop();
  });
});
