// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { C2cOpenPoll } from '../../core/api/c2c';
import type { C2cOrder, C2cStatus, C2cTopicMessage } from '../../protocol/c2c';
import { RealtimeSocket } from '../socket';
import { FakeSocket } from '../testing';
import { isNewerC2cOrder, isOpenC2cOrder, newerC2cOrder } from './news';
import { type C2cChange, createC2cOrderStream } from './orders';

// The `me:c2c` topic and its messages, the merge with the ctc/order/list poll (the later status wins, since a C2C
// order has no updated_at), open orders that ended unseen, the changes the views get, and one order's own feed.

const T0 = 1_700_000_000_000;

const order = (id: number, status: C2cStatus, extra: Partial<C2cOrder> = {}): C2cOrder => ({
  id,
  sn: `C${String(id).padStart(8, '0')}`,
  ad_id: 1,
  role: 'buyer',
  merchant_nickname: 'Demo Merchant',
  buyer_nickname: 'user1',
  coin: 'BTC',
  scale: 8,
  fiat: 'EUR',
  price: '60000.00',
  quantity: '0.01000000',
  amount: '600.00',
  min_fiat: '50.00',
  max_fiat: '5000.00',
  pay_type: 'sepa',
  pay_info: { type: 'sepa', name: 'M', account: 'DE00', note: '' },
  status,
  created_at: T0 + id,
  pay_until: T0 + id + 30 * 60_000,
  paid_at: status === 2 || status === 3 || status === 4 ? T0 + 1_000 : null,
  completed_at: status === 3 ? T0 + 2_000 : null,
  cancelled_at: status === 5 ? T0 + 2_000 : null,
  cancel_reason: status === 5 ? 'buyer' : null,
  appeal:
    status === 4
      ? { by: 'buyer', reason: 'r', opened_at: T0 + 1_500, decision: null, decision_reason: null, decided_at: null }
      : null,
  conversation_id: null,
  request_id: `r${id}`,
  ...extra,
});

describe('which copy is newer', () => {
  it('orders copies by status: paying, paid, appeal, then completed or cancelled', () => {
    expect(isNewerC2cOrder(undefined, order(1, 1))).toBe(true);
    expect(isNewerC2cOrder(order(1, 1), order(1, 2))).toBe(true);
    expect(isNewerC2cOrder(order(1, 1), order(1, 5))).toBe(true);
    expect(isNewerC2cOrder(order(1, 2), order(1, 4))).toBe(true);
    expect(isNewerC2cOrder(order(1, 4), order(1, 3))).toBe(true);
    expect(isNewerC2cOrder(order(1, 2), order(1, 2))).toBe(false);
    expect(isNewerC2cOrder(order(1, 2), order(1, 1))).toBe(false);
    expect(isNewerC2cOrder(order(1, 5), order(1, 2))).toBe(false);
    expect(isNewerC2cOrder(order(1, 3), order(1, 4))).toBe(false);
    expect(newerC2cOrder(order(1, 3), order(1, 2)).status).toBe(3);
  });

  it('within a status, a later event is news (an appeal decided)', () => {
    const decided = order(1, 3, {
      appeal: {
        by: 'buyer',
        reason: 'r',
        opened_at: T0 + 1_500,
        decision: 'release',
        decision_reason: 'ok',
        decided_at: T0 + 5_000,
      },
      completed_at: T0 + 5_000,
    });
    expect(isNewerC2cOrder(order(1, 3), decided)).toBe(true);
    expect(isNewerC2cOrder(decided, order(1, 3))).toBe(false);
  });

  it('knows which statuses still wait for someone', () => {
    expect([1, 2, 3, 4, 5].map((s) => isOpenC2cOrder({ status: s as C2cStatus }))).toEqual([
      true,
      true,
      false,
      true,
      false,
    ]);
  });
});

describe('the c2c stream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(poll: () => Promise<C2cOpenPoll | false>, now = () => T0 + 100_000) {
    const fake = new FakeSocket();
    const stream = createC2cOrderStream({
      source: new RealtimeSocket({ createSocket: () => fake, visibility: null, clock: null }),
      poll,
      now,
    });
    fake.open();
    const lists: string[][] = [];
    const changes: string[] = [];
    const mine: number[] = [];
    const name = (c: C2cChange) => (c.kind === 'order' ? `${c.order.id}:${c.order.status}` : `${c.id}:dropped`);
    const subs = [
      stream.changes$.subscribe((c) => changes.push(name(c))),
      stream.orders$.subscribe((list) => lists.push(list.map((o) => `${o.id}:${o.status}`))),
      stream.order$(2).subscribe((o) => mine.push(o.status)),
    ];
    let seq = 0;
    const push = (data: C2cTopicMessage, ts: number) =>
      fake.pushPrivate({
        topic: 'me:c2c',
        kind: data.kind === 'snapshot' ? 'snapshot' : 'update',
        seq: seq++,
        ts,
        data,
      });
    return {
      fake,
      stream,
      lists,
      changes,
      mine,
      push,
      stop: () => {
        for (const s of subs) s.unsubscribe();
      },
    };
  }

  it('reads me:c2c: the snapshot, then each changed order of either side, newest first', () => {
    const t = setup(async () => false);
    expect(t.fake.subscribes()).toEqual(['me:c2c']);
    t.fake.ack('subscribe', { ok: true, topic: 'me:c2c' });
    t.push({ kind: 'snapshot', orders: [] }, T0 + 100);
    // An empty snapshot still says "loaded".
    expect(t.lists).toEqual([[]]);
    t.push({ kind: 'snapshot', orders: [order(2, 1), order(1, 2, { role: 'merchant' })] }, T0 + 101);
    t.push({ kind: 'order', order: order(3, 1) }, T0 + 102);
    t.push({ kind: 'order', order: order(2, 2) }, T0 + 103);
    t.push({ kind: 'order', order: order(2, 2) }, T0 + 104);
    t.push({ kind: 'order', order: order(1, 3, { role: 'merchant' }) }, T0 + 105);
    // Orders that ended stay in the list; a repeat changes nothing.
    expect(t.lists.at(-1)).toEqual(['3:1', '2:2', '1:3']);
    expect(t.changes).toEqual(['2:1', '1:2', '3:1', '2:2', '1:3']);
    expect(t.mine).toEqual([1, 2]);
    t.stop();
  });

  it('merges the ctc/order/list poll: the later status wins, repeats and late copies are dropped', async () => {
    const polls: (C2cOpenPoll | false)[] = [{ orders: [order(1, 1), order(2, 1)], complete: ['buyer'] }];
    const t = setup(async () => polls.shift() ?? false);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.lists.at(-1)).toEqual(['2:1', '1:1']);
    // The topic repeats 1 and has 2 paid since; then a late copy of 2 from before.
    t.push({ kind: 'snapshot', orders: [order(2, 2), order(1, 1)] }, T0 + 100_000);
    t.push({ kind: 'order', order: order(2, 1) }, T0 + 100_001);
    expect(t.changes).toEqual(['1:1', '2:1', '2:2']);
    expect(t.mine).toEqual([1, 2]);
    expect(t.lists.at(-1)).toEqual(['2:2', '1:1']);
    t.stop();
  });

  it('drops an open order that a full list no longer holds, unless it is newer than the list', async () => {
    const polls: (C2cOpenPoll | false)[] = [
      { orders: [order(1, 1), order(2, 1), order(4, 2, { role: 'merchant' })], complete: ['buyer', 'merchant'] },
    ];
    const t = setup(async () => polls.shift() ?? false);
    await vi.advanceTimersByTimeAsync(0);
    t.push({ kind: 'snapshot', orders: [order(1, 1), order(2, 1), order(4, 2, { role: 'merchant' })] }, T0 + 100_000);
    // Made after the next snapshot was: missing from it without having ended.
    t.push({ kind: 'order', order: order(9, 1, { created_at: T0 + 200_000 }) }, T0 + 200_000);
    // 1 ended while the socket was down (no news of it); 2 is still open.
    t.push({ kind: 'snapshot', orders: [order(2, 1), order(4, 2, { role: 'merchant' })] }, T0 + 150_000);
    expect(t.changes).toEqual(['1:1', '2:1', '4:2', '9:1', '1:dropped']);
    expect(t.lists.at(-1)).toEqual(['9:1', '4:2', '2:1']);
    t.stop();
  });

  it('a poll that holds only one side (or only part of it) drops nothing of the other', async () => {
    const polls: (C2cOpenPoll | false)[] = [
      { orders: [order(1, 1), order(4, 2, { role: 'merchant' })], complete: ['buyer', 'merchant'] },
      // The merchant's side failed or was not asked: its order stays.
      { orders: [order(1, 1)], complete: ['buyer'] },
      // The buyer's side had more than one page: nothing of it is dropped either.
      { orders: [], complete: [] },
    ];
    const t = setup(async () => polls.shift() ?? false);
    await vi.advanceTimersByTimeAsync(0);
    expect(await t.stream.refresh()).toBe(true);
    expect(await t.stream.refresh()).toBe(true);
    expect(t.changes).toEqual(['1:1', '4:2']);
    expect(t.lists.at(-1)).toEqual(['4:2', '1:1']);
    t.stop();
  });

  it('refreshes on demand (pull to refresh): one poll, folded in like any other', async () => {
    const polls: (C2cOpenPoll | false)[] = [
      { orders: [], complete: ['buyer'] },
      { orders: [order(2, 1)], complete: ['buyer'] },
      false,
    ];
    const t = setup(async () => polls.shift() ?? false);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.lists).toEqual([[]]);
    expect(await t.stream.refresh()).toBe(true);
    expect(t.lists.at(-1)).toEqual(['2:1']);
    expect(await t.stream.refresh()).toBe(false);
    expect(t.changes).toEqual(['2:1']);
    t.stop();
  });
});
