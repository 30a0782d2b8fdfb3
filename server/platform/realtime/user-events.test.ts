import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountEvent } from '../../../protocol/identity';
import { insertUser, openMemoryDatabase } from '../../testing';
import type { DatabaseHandle } from '../db/connect';
import { recordUserEvent, UserEventRelay } from './user-events';

describe('user event relay', () => {
  let handle: DatabaseHandle;
  let userId: number;
  let got: Array<[number, AccountEvent]>;
  let time: number;
  let relay: UserEventRelay;
  const sink = (id: number, event: AccountEvent) => {
    got.push([id, event]);
  };
  const insertWithId = (id: number, kind = 'verification') =>
    handle.db
      .insertInto('user_events')
      .values({ id, user_id: userId, kind, payload: JSON.stringify({ n: id }), created_at: 1 })
      .execute();

  beforeEach(async () => {
    handle = await openMemoryDatabase();
    userId = await insertUser(handle);
    got = [];
    time = 0;
    relay = new UserEventRelay(handle.db, sink, { intervalMs: 60_000, gapWaitMs: 1000, clock: () => time });
  });
  afterEach(async () => {
    await handle.db.destroy();
  });

  it('relays rows written after its start, once each, in order', async () => {
    await recordUserEvent(handle.db, { userId, kind: 'old', data: {}, at: 1 });
    await relay.start();
    expect(await relay.poll()).toBe(0);
    await recordUserEvent(handle.db, {
      userId,
      kind: 'verification',
      data: { level: 'basic', state: 'verified' },
      at: 2,
    });
    await recordUserEvent(handle.db, { userId, kind: 'other', data: null, at: 3 });
    expect(await relay.poll()).toBe(2);
    expect(got).toEqual([
      [userId, { kind: 'verification', data: { level: 'basic', state: 'verified' } }],
      [userId, { kind: 'other', data: null }],
    ]);
    expect(await relay.poll()).toBe(0);
    expect(got).toHaveLength(2);
  });

  it('waits for an id committed late (PostgreSQL hands out ids before commit) and gives a hole up in the end', async () => {
    await relay.start();
    await insertWithId(2);
    expect(await relay.poll()).toBe(1);
    // Id 1 commits after id 2: still delivered, and 2 not again.
    await insertWithId(1);
    expect(await relay.poll()).toBe(1);
    expect(got.map(([, e]) => e.data)).toEqual([{ n: 2 }, { n: 1 }]);

    // Id 3 never comes (a rolled-back transaction): 4 and 5 are delivered at once, the hole is dropped later.
    await insertWithId(4);
    await insertWithId(5);
    expect(await relay.poll()).toBe(2);
    time += 1000;
    expect(await relay.poll()).toBe(0);
    await insertWithId(6);
    expect(await relay.poll()).toBe(1);
    expect(got.map(([, e]) => e.data)).toEqual([{ n: 2 }, { n: 1 }, { n: 4 }, { n: 5 }, { n: 6 }]);
  });

  it('passes a payload that is no JSON on as null', async () => {
    await relay.start();
    await handle.db
      .insertInto('user_events')
      .values({ user_id: userId, kind: 'x', payload: '{broken', created_at: 1 })
      .execute();
    await relay.poll();
    expect(got).toEqual([[userId, { kind: 'x', data: null }]]);
  });
});
