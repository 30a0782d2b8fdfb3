// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type IeoOrder, type IeoPhase, type IeoTopicMessage, IPO_STATUS_OF_PHASE } from '../../protocol/ieo';
import { RealtimeSocket } from '../socket';
import { FakeSocket } from '../testing';
import { isNewerIeoOrder, newerIeoOrder } from './news';
import { createIeoOrderStream } from './subscriptions';

// The `me:ieo` topic and its messages, the merge with the ieo/myApply poll (the later phase wins, since an IEO order
// has no updated_at), the changes the views get, and one order's own feed.

const order = (id: number, phase: IeoPhase): IeoOrder => {
  const allotted = phase !== 'subscribed';
  return {
    id,
    sn: `I${String(id).padStart(8, '0')}`,
    project_id: 1,
    coin: 'DEMO',
    name: 'Demo Token',
    description: '',
    scale: 8,
    listing_price: '0.08',
    ieo_price: '0.05',
    total_supply: '100000000',
    circulating_supply: '20000000',
    quantity: '100.00000000',
    allotment_quantity: allotted ? (phase === 'failed' ? '0.00000000' : '40.00000000') : null,
    pending_quantity: allotted ? '60.00000000' : null,
    payment: allotted && phase !== 'failed' ? '2.000000' : null,
    success_pay: ['paid', 'locked', 'unlocked'].includes(phase) ? '2.000000' : null,
    ipo_status: IPO_STATUS_OF_PHASE[phase],
    phase,
    apply_time: 1_000 + id,
    allotment_date: 10_000,
    pay_date: 20_000,
    listing_date: 20_000,
    lock_date: 30_000,
    paid_at: null,
    request_id: `r${id}`,
  };
};

describe('which copy is newer', () => {
  it('orders copies by phase: a later phase is news, the same or an earlier one is not', () => {
    expect(isNewerIeoOrder(undefined, order(1, 'subscribed'))).toBe(true);
    expect(isNewerIeoOrder(order(1, 'subscribed'), order(1, 'allotted'))).toBe(true);
    expect(isNewerIeoOrder(order(1, 'allotted'), order(1, 'paid'))).toBe(true);
    expect(isNewerIeoOrder(order(1, 'allotted'), order(1, 'lapsed'))).toBe(true);
    expect(isNewerIeoOrder(order(1, 'locked'), order(1, 'unlocked'))).toBe(true);
    expect(isNewerIeoOrder(order(1, 'paid'), order(1, 'paid'))).toBe(false);
    expect(isNewerIeoOrder(order(1, 'paid'), order(1, 'allotted'))).toBe(false);
    expect(newerIeoOrder(order(1, 'locked'), order(1, 'paid')).phase).toBe('locked');
  });
});

describe('the ieo stream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(poll: () => Promise<IeoOrder[] | false>) {
    const fake = new FakeSocket();
    const stream = createIeoOrderStream({
      source: new RealtimeSocket({ createSocket: () => fake, visibility: null, clock: null }),
      poll,
    });
    fake.open();
    const lists: string[][] = [];
    const changes: string[] = [];
    const mine: string[] = [];
    const subs = [
      stream.changes$.subscribe((o) => changes.push(`${o.id}:${o.phase}`)),
      stream.orders$.subscribe((list) => lists.push(list.map((o) => `${o.id}:${o.phase}`))),
      stream.order$(2).subscribe((o) => mine.push(o.phase)),
    ];
    let seq = 0;
    const push = (data: IeoTopicMessage, ts: number) =>
      fake.pushPrivate({
        topic: 'me:ieo',
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

  it('reads me:ieo: the snapshot, then each changed subscription, newest first', () => {
    const t = setup(async () => false);
    expect(t.fake.subscribes()).toEqual(['me:ieo']);
    t.fake.ack('subscribe', { ok: true, topic: 'me:ieo' });
    t.push({ kind: 'snapshot', orders: [] }, 100);
    // An empty snapshot still says "loaded".
    expect(t.lists).toEqual([[]]);
    t.push({ kind: 'snapshot', orders: [order(2, 'subscribed'), order(1, 'allotted')] }, 101);
    t.push({ kind: 'order', order: order(3, 'subscribed') }, 102);
    t.push({ kind: 'order', order: order(2, 'allotted') }, 103);
    t.push({ kind: 'order', order: order(2, 'paid') }, 104);
    expect(t.lists.at(-1)).toEqual(['3:subscribed', '2:paid', '1:allotted']);
    expect(t.changes).toEqual(['2:subscribed', '1:allotted', '3:subscribed', '2:allotted', '2:paid']);
    expect(t.mine).toEqual(['subscribed', 'allotted', 'paid']);
    t.stop();
  });

  it('merges the ieo/myApply poll: the later phase wins, repeats and late copies are dropped', async () => {
    const polls: (IeoOrder[] | false)[] = [[order(1, 'subscribed'), order(2, 'allotted')]];
    const t = setup(async () => polls.shift() ?? false);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.lists.at(-1)).toEqual(['2:allotted', '1:subscribed']);
    // The topic repeats 1 and has 2 paid since; then a late copy of 2 from before.
    t.push({ kind: 'snapshot', orders: [order(2, 'paid'), order(1, 'subscribed')] }, 100);
    t.push({ kind: 'order', order: order(2, 'allotted') }, 101);
    expect(t.changes).toEqual(['1:subscribed', '2:allotted', '2:paid']);
    expect(t.mine).toEqual(['allotted', 'paid']);
    expect(t.lists.at(-1)).toEqual(['2:paid', '1:subscribed']);
    t.stop();
  });

  it('refreshes on demand (pull to refresh): one poll, folded in like any other', async () => {
    const polls: (IeoOrder[] | false)[] = [[], [order(2, 'allotted')], false];
    const t = setup(async () => polls.shift() ?? false);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.lists).toEqual([[]]);
    expect(await t.stream.refresh()).toBe(true);
    expect(t.lists.at(-1)).toEqual(['2:allotted']);
    expect(await t.stream.refresh()).toBe(false);
    expect(t.changes).toEqual(['2:allotted']);
    t.stop();
  });
});
