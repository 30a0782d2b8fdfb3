import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountEvent } from '../../../protocol/identity';
import { insertUser, openMemoryDatabase } from '../../testing';
import type { DatabaseHandle } from '../db/connect';
import { type InFlight, recordUserEvent, UserEventRelay } from './user-events';

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

  it('gives a hole up by the clock once its wait has passed (SQLite: a hole is a rolled-back insert)', async () => {
    await relay.start();
    await insertWithId(2);
    expect(await relay.poll()).toBe(1);
    expect(relay.waitingIds).toBe(1);
    time += 1000;
    await relay.poll();
    await relay.poll();
    expect(relay.waitingIds).toBe(0);
  });

  describe('with a transaction that holds an id past the hole wait', () => {
    /** Transactions in flight as the database would tell them: "1" holds id 1, "2" wrote id 2 and committed. */
    let inFlight: InFlight;
    beforeEach(() => {
      inFlight = { oldest: 1n, next: 3n };
      relay = new UserEventRelay(handle.db, sink, {
        intervalMs: 60_000,
        gapWaitMs: 1000,
        clock: () => time,
        inFlight: async () => inFlight,
        batch: 2,
      });
    });

    it('delivers its event when it commits, however late', async () => {
      await relay.start();
      await insertWithId(2);
      expect(await relay.poll()).toBe(1);
      // Far past the hole wait: the transaction is still running, so its id is still waited for.
      for (let k = 0; k < 5; k += 1) {
        time += 10_000;
        expect(await relay.poll()).toBe(0);
      }
      expect(relay.waitingIds).toBe(1);
      await insertWithId(1);
      inFlight = { oldest: 3n, next: 3n };
      expect(await relay.poll()).toBe(1);
      expect(got.map(([, e]) => e.data)).toEqual([{ n: 2 }, { n: 1 }]);
      // Nothing runs any more: the hole is closed, and nothing comes twice.
      expect(await relay.poll()).toBe(0);
      expect(relay.waitingIds).toBe(0);
      expect(got).toHaveLength(2);
    });

    it('keeps delivering newer rows, more than a batch of them, while the hole waits', async () => {
      await relay.start();
      for (const id of [2, 3, 4, 5, 6]) await insertWithId(id);
      expect(await relay.poll()).toBe(2);
      expect(await relay.poll()).toBe(2);
      expect(await relay.poll()).toBe(1);
      expect(got.map(([, e]) => e.data)).toEqual([{ n: 2 }, { n: 3 }, { n: 4 }, { n: 5 }, { n: 6 }]);
      expect(relay.waitingIds).toBe(1);
    });

    it('gives the hole up once the transaction has ended without the row (it rolled back)', async () => {
      await relay.start();
      await insertWithId(2);
      await relay.poll();
      inFlight = { oldest: 3n, next: 4n };
      await relay.poll();
      await relay.poll();
      expect(relay.waitingIds).toBe(0);
      expect(got).toHaveLength(1);
    });
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
