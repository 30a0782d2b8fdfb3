// @vitest-environment node
import { BehaviorSubject, Subject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { type LeverDeal, type LeverPosition, leverDealResponse } from '../../protocol/lever';
import type { Mark, PositionChange } from '../../streams/lever/positions';
import { createInThreadPositions, type PositionsClient } from '../../workers/lever/positions';
import { type LeverLive, startLeverLive } from './live';
import { leverOrderMachine, leverOrderView } from './order.machine';
import { draft, position } from './order.model';

/**
 * The live book outside React: the streams drive the book machine (rows spawned, told and stopped with the open
 * lists, the gate told to every machine, the ticket told each change) and the positions worker (positions, deal,
 * marks once a frame), with no component in between. Subjects stand for the streams, an in-thread worker for the
 * worker, and the test runs the frames.
 */

const deal = (wallet = '1000'): LeverDeal =>
  leverDealResponse.parse({
    scale: 4,
    available: '1000',
    currency: 'USDT',
    cross_wallet: wallet,
    instruments: [
      {
        symbol: 'BTC',
        price_scale: 2,
        contract_size: '0.01',
        leverages: [10],
        mmr: '0.005',
        fee_rate: '0.0005',
        tick_size: '0.01',
      },
    ],
  });

function rig() {
  const open$ = new BehaviorSubject<LeverPosition[]>([]);
  const changes$ = new Subject<PositionChange>();
  const deal$ = new BehaviorSubject<LeverDeal>(deal());
  const marks$ = new Subject<Mark[]>();
  const fresh$ = new BehaviorSubject<boolean>(false);
  const frames: (() => void)[] = [];
  const worker: PositionsClient = createInThreadPositions();
  const disposed = vi.fn();
  const calls: string[] = [];
  const spied: PositionsClient = {
    ...worker,
    setInstruments(...a) {
      calls.push('instruments');
      return worker.setInstruments(...a);
    },
    setWallets(...a) {
      calls.push(`wallet ${JSON.stringify(a[0])}`);
      return worker.setWallets(...a);
    },
    setPositions(...a) {
      calls.push(`positions ${a[0].map((p) => p.id).join(',')}`);
      return worker.setPositions(...a);
    },
    applyMarks(...a) {
      calls.push(`marks ${a[0].map((m) => m.price).join(',')}`);
      return worker.applyMarks(...a);
    },
    dispose: disposed,
  };
  const news: PositionChange[] = [];
  const live: LeverLive = startLeverLive('simulator', {
    positions: { open$, changes$ },
    deal$,
    marks: () => marks$,
    fresh$,
    startWorker: async () => spied,
    order: leverOrderMachine,
    makeId: () => 'req-1',
    onChange: (c) => news.push(c),
    frame: {
      request: (cb) => frames.push(cb),
      cancel: () => {},
    },
  });
  const runFrames = () => {
    while (frames.length > 0) frames.shift()?.();
  };
  return { open$, changes$, deal$, marks$, fresh$, live, calls, disposed, news, runFrames };
}

/**
 * The worker comes up through promises (startWorker, its calls): a check that holds once they have run. A deadline,
 * not a wait: on a busy machine the microtasks may take a while, and the check passes the moment they have run.
 */
const settled = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 5 });

const rowOf = (live: LeverLive, id: number) => live.actor.getSnapshot().context.rows[id]?.ref;
const holding = (id: number, at = 4_000) => position('holding', at, { id, order_no: `L${id}` });

describe('the live lever book', () => {
  it('spawns a row machine per open order or position in its state, and stops those that leave', () => {
    const { open$, live } = rig();
    expect(live.actor.getSnapshot().context.lists).toEqual({ orders: [], positions: [] });
    const waiting = position('waiting', 1_000, { id: 8 });
    open$.next([holding(7), waiting]);
    const lists = live.actor.getSnapshot().context.lists;
    expect(lists?.positions.map((p) => p.id)).toEqual([7]);
    expect(lists?.orders.map((p) => p.id)).toEqual([8]);
    const row7 = rowOf(live, 7);
    expect(row7 && leverOrderView(row7.getSnapshot()).phase).toBe('holding');
    const row8 = rowOf(live, 8);
    expect(row8 && leverOrderView(row8.getSnapshot()).phase).toBe('waiting');
    open$.next([holding(7)]);
    expect(rowOf(live, 8)).toBeUndefined();
    expect(row7?.getSnapshot().status).toBe('active');
    expect(rowOf(live, 7)).toBe(row7);
    open$.next([]);
    expect(row7?.getSnapshot().status).toBe('stopped');
    live.stop();
  });

  it("tells a row each newer copy of its position, and the machine goes where the server's word says", () => {
    const { open$, live } = rig();
    open$.next([holding(7)]);
    open$.next([position('closing', 5_000, { id: 7, order_no: 'L7' })]);
    const row = rowOf(live, 7);
    expect(row && leverOrderView(row.getSnapshot()).phase).toBe('closing');
    live.stop();
  });

  it('tells the price gate to the ticket and every row, and a row that appears while fresh starts fresh', () => {
    const { open$, fresh$, live } = rig();
    open$.next([holding(7)]);
    const ticket = live.actor.getSnapshot().context.ticket;
    expect(leverOrderView(ticket.getSnapshot()).submitEnabled).toBe(false);
    fresh$.next(true);
    expect(leverOrderView(ticket.getSnapshot()).submitEnabled).toBe(true);
    const row7 = rowOf(live, 7);
    expect(row7 && leverOrderView(row7.getSnapshot()).closeEnabled).toBe(true);
    open$.next([holding(7), holding(9)]);
    const row9 = rowOf(live, 9);
    expect(row9 && leverOrderView(row9.getSnapshot()).closeEnabled).toBe(true);
    fresh$.next(false);
    expect(row9 && leverOrderView(row9.getSnapshot()).closeEnabled).toBe(false);
    expect(leverOrderView(ticket.getSnapshot()).submitEnabled).toBe(false);
    live.stop();
  });

  it('tells the ticket each change and the page its news, once each', () => {
    const { changes$, live, news } = rig();
    const ticket = live.actor.getSnapshot().context.ticket;
    const closed = position('closed', 6_000, { id: 7, close_reason: 'user' });
    changes$.next({ kind: 'position', position: closed });
    changes$.next({ kind: 'closed' });
    expect(news).toEqual([{ kind: 'position', position: closed }, { kind: 'closed' }]);
    // The ticket placed no order: a stranger's position changes nothing in it.
    expect(leverOrderView(ticket.getSnapshot()).phase).toBe('entering');
    live.stop();
  });

  it('lets the ticket go of its order once the server has it open, remembering its number for the page', () => {
    const { changes$, fresh$, live } = rig();
    fresh$.next(true);
    const ticket = live.actor.getSnapshot().context.ticket;
    ticket.send({ type: 'SUBMIT', draft });
    expect(leverOrderView(ticket.getSnapshot()).phase).toBe('submitting');
    // The order's first copy, known by the request id the ticket sent, overtakes the answer.
    changes$.next({
      kind: 'position',
      position: position('waiting', 2_000, { id: 9, order_no: 'L9', request_id: 'req-1' }),
    });
    const view = leverOrderView(ticket.getSnapshot());
    expect(view.phase).toBe('entering');
    expect(view.position).toBeNull();
    expect(view.placed).toBe('L9');
    // The next submission starts without the old announcement.
    ticket.send({ type: 'SUBMIT', draft });
    expect(leverOrderView(ticket.getSnapshot()).placed).toBeNull();
    live.stop();
  });

  it('feeds the worker from the streams, marks once a frame, and publishes figures at the frame', async () => {
    const { open$, deal$, marks$, live, calls, runFrames } = rig();
    open$.next([holding(7)]);
    // The worker's client loads beside the page: the feed starts when it is up.
    await settled(() => expect(calls).toContain('instruments'));
    marks$.next([{ symbol: 'BTC', seq: 1, ts: 100, price: '51000' }]);
    marks$.next([{ symbol: 'BTC', seq: 2, ts: 200, price: '52000' }]);
    expect(calls.filter((c) => c.startsWith('marks'))).toEqual([]);
    runFrames();
    expect(calls.filter((c) => c.startsWith('marks'))).toEqual(['marks 52000']);
    expect(calls).toContain('positions 7');
    expect(calls).toContain('wallet {"simulator":"1000"}');
    deal$.next({ ...deal$.value, cross_wallet: '1200' });
    deal$.next({ ...deal$.value });
    expect(calls.filter((c) => c.startsWith('instruments'))).toHaveLength(1);
    expect(calls.filter((c) => c.startsWith('wallet'))).toEqual([
      'wallet {"simulator":"1000"}',
      'wallet {"simulator":"1200"}',
    ]);
    // The worker answers asynchronously; its figures show at the next frame.
    await settled(() => {
      runFrames();
      expect(live.figures.get(7)?.mark).toBe('52000.00');
    });
    live.stop();
  });

  it('ends the worker and every machine when the page lets go', async () => {
    const { open$, live, disposed, calls } = rig();
    open$.next([holding(7)]);
    await settled(() => expect(calls).toContain('positions 7'));
    const row = rowOf(live, 7);
    live.stop();
    expect(disposed).toHaveBeenCalledOnce();
    expect(row?.getSnapshot().status).toBe('stopped');
    expect(live.actor.getSnapshot().status).toBe('stopped');
  });

  it('ends a worker that comes up after the page let go, and never feeds it', async () => {
    const { live, disposed, calls } = rig();
    live.stop();
    await settled(() => expect(disposed).toHaveBeenCalledOnce());
    expect(calls).toEqual([]);
  });
});
