// @vitest-environment node
import { firstValueFrom, of, Subject, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type LeverPhase, type LeverPosition, type PositionsTopicMessage, STATUS_OF_PHASE } from '../../protocol/lever';
import type { Quote } from '../../protocol/market';
import type { QuoteBoard } from '../quotes';
import { RealtimeSocket } from '../socket';
import { FakeSocket } from '../testing';
import { createPositionStream, inBook, leverMarks, type Mark, type PositionChange } from './positions';

// The merging of topic and poll is tested once, in streams/private-records.test.ts; here only what is lever's: the
// `me:positions` topic and its messages, both books in one list, which positions are open, the change the views get,
// that the lever/my_trade poll is merged by `updated_at`, and the per-book split.

const position = (
  id: number,
  phase: LeverPhase,
  updatedAt: number,
  account: LeverPosition['account_type'] = 'simulator',
): LeverPosition => {
  const opened = phase === 'holding' || phase === 'closing' || phase === 'closed';
  return {
    id,
    order_no: `L${id}`,
    symbol: 'BTC',
    direction: 'long',
    type: 'market',
    margin_mode: 'isolated',
    account_type: account,
    status: STATUS_OF_PHASE[phase],
    phase,
    lots: 1,
    quantity: '0.01',
    contract_size: '0.01',
    leverage: 10,
    mmr: '0.005',
    fee_rate: '0.0005',
    limit_price: null,
    entry_price: opened ? '50000' : null,
    close_offset_price: phase === 'closed' ? '50100' : null,
    profit_take_price: null,
    stop_loss_price: null,
    initial_margin: opened ? '50' : null,
    additional_margin: '0',
    amount: opened ? '500' : null,
    commission: '0',
    open_fee: opened ? '0' : null,
    close_fee: null,
    Liquidation_Price: opened ? '45226.13' : null,
    Liquidation_Time: null,
    floating_profit_or_loss: null,
    unrealized_pnl_percent: null,
    realized_pnl: null,
    realized_pnl_percent: null,
    total_profit_or_loss: null,
    insurance: null,
    close_reason: phase === 'closed' ? 'user' : null,
    cancel_reason: phase === 'cancelled' ? 'no_tick' : null,
    entry: opened ? { symbol: 'BTC', seq: 5, ts: 50, price: '50000' } : null,
    exit: null,
    mark: null,
    open_position_time: opened ? 50 : null,
    time_to_close_position: null,
    request_id: `r${id}`,
    created_at: id * 10,
    updated_at: updatedAt,
  };
};

const show = (c: PositionChange) => (c.kind === 'position' ? `${c.position.id}:${c.position.phase}` : c.kind);

describe('the position stream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(poll: () => Promise<LeverPosition[] | false>) {
    const fake = new FakeSocket();
    const stream = createPositionStream({
      source: new RealtimeSocket({ createSocket: () => fake, visibility: null, clock: null }),
      poll,
      now: () => 10_000,
    });
    fake.open();
    const open: number[][] = [];
    const changes: PositionChange[] = [];
    const subs = [
      stream.changes$.subscribe((c) => changes.push(c)),
      stream.open$.subscribe((list) => open.push(list.map((p) => p.id))),
    ];
    let seq = 0;
    const push = (data: PositionsTopicMessage, ts: number) =>
      fake.pushPrivate({
        topic: 'me:positions',
        kind: data.kind === 'snapshot' ? 'snapshot' : 'update',
        seq: seq++,
        ts,
        data,
      });
    return {
      fake,
      open,
      changes,
      push,
      stop: () => {
        for (const s of subs) s.unsubscribe();
      },
    };
  }

  it('reads me:positions: orders, holding and closing of both books are open; closed and cancelled leave', async () => {
    const t = setup(async () => false);
    expect(t.fake.subscribes()).toEqual(['me:positions']);
    t.fake.ack('subscribe', { ok: true, topic: 'me:positions' });
    t.push({ kind: 'snapshot', positions: [position(1, 'waiting', 10), position(2, 'holding', 20, 'real')] }, 100);
    t.push({ kind: 'position', position: position(3, 'pending', 30) }, 101);
    t.push({ kind: 'position', position: position(1, 'holding', 40) }, 102);
    t.push({ kind: 'position', position: position(2, 'closing', 50, 'real') }, 103);
    t.push({ kind: 'position', position: position(2, 'closed', 60, 'real') }, 104);
    t.push({ kind: 'position', position: position(3, 'cancelled', 70) }, 105);
    expect(t.open).toEqual([[2, 1], [3, 2, 1], [3, 2, 1], [3, 2, 1], [3, 1], [1]]);
    expect(t.changes.map(show)).toEqual([
      '1:waiting',
      '2:holding',
      '3:pending',
      '1:holding',
      '2:closing',
      '2:closed',
      '3:cancelled',
    ]);
    t.stop();
  });

  it('merges the lever/my_trade poll: newer wins, repeats and late copies are dropped', async () => {
    const polls: (LeverPosition[] | false)[] = [[position(1, 'waiting', 10), position(2, 'holding', 20, 'real')]];
    const t = setup(async () => polls.shift() ?? false);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.open.at(-1)).toEqual([2, 1]);
    // The topic's snapshot repeats 2 and has 1 opened since; the poll's copy of 1 is older news.
    t.push({ kind: 'snapshot', positions: [position(1, 'holding', 30), position(2, 'holding', 20, 'real')] }, 100);
    t.push({ kind: 'position', position: position(1, 'waiting', 10) }, 101);
    expect(t.changes.map(show)).toEqual(['1:waiting', '2:holding', '1:holding']);
    t.stop();
  });
});

describe('one book', () => {
  it('splits the open list into orders (status 0) and positions (1, 2) of the chosen book', async () => {
    const open = [
      position(4, 'closing', 40),
      position(3, 'pending', 30, 'real'),
      position(2, 'holding', 20),
      position(1, 'waiting', 10),
    ];
    const lists = await firstValueFrom(of(open).pipe(inBook('simulator')));
    expect(lists.orders.map((p) => p.id)).toEqual([1]);
    expect(lists.positions.map((p) => p.id)).toEqual([4, 2]);
    const real = await firstValueFrom(of(open).pipe(inBook('real')));
    expect(real).toEqual({ orders: [open[1]], positions: [] });
  });
});

describe('marks', () => {
  const quote = (symbol: string, last: string, ts: number): Quote => ({
    symbol,
    id: 1,
    last,
    open: last,
    high: last,
    low: last,
    change_pct: '0.00',
    volume: '0',
    ts,
    seq: ts,
  });
  const board = (version: number, ...quotes: Quote[]): QuoteBoard => ({
    quotes: new Map(quotes.map((q) => [q.symbol, q])),
    version,
  });

  it('maps the quote board to the marks of the chosen symbols, once per change of theirs', async () => {
    const boards = new Subject<QuoteBoard>();
    const seen = firstValueFrom(leverMarks(['BTC', 'ETH'], boards).pipe(toArray()));
    boards.next(board(1, quote('BTC', '50000', 1)));
    // SOL moved, BTC did not: no new marks.
    boards.next(board(2, quote('BTC', '50000', 1), quote('SOL', '150', 2)));
    boards.next(board(3, quote('BTC', '50010.5', 3), quote('ETH', '3000', 3)));
    boards.complete();
    const marks: Mark[][] = await seen;
    expect(marks).toEqual([
      [{ symbol: 'BTC', seq: 1, ts: 1, price: '50000' }],
      [
        { symbol: 'BTC', seq: 3, ts: 3, price: '50010.5' },
        { symbol: 'ETH', seq: 3, ts: 3, price: '3000' },
      ],
    ]);
  });
});
