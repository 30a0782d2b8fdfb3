import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountEvent } from '../../protocol/identity';
import { recordUserEvent, UserEventRelay } from '../../server/platform/realtime/user-events';
import { insertUser } from '../../server/testing';
import { DATABASES, openTestDatabase, type TestDatabase } from './harness';

/**
 * The relay against real transactions: on PostgreSQL ids are handed out before commit, so a slow transaction's
 * event becomes visible after newer ones, and after any wait by the clock (the failover bench's lost end events).
 */
describe.each(DATABASES)('user event relay on %s', (kind) => {
  let database: TestDatabase;
  let userId: number;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    userId = await insertUser(database.handle);
  });
  afterAll(async () => {
    await database?.close();
  });

  // Only PostgreSQL has it: SQLite admits one writer at a time, so no transaction can hold an id while a later one
  // commits (its side of the rule, the clock wait for a rolled-back hole, is the test below and the relay's unit tests).
  if (kind === 'postgres') {
    it('delivers the event of a commit slower than the hole wait', async () => {
      const { db } = database.handle;
      const got: AccountEvent[] = [];
      let time = 0;
      const relay = new UserEventRelay(db, (_, event) => got.push(event), {
        intervalMs: 60_000,
        gapWaitMs: 1000,
        clock: () => time,
      });
      await relay.start();

      let commit: () => void = () => {};
      const committing = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let wrote: () => void = () => {};
      const written = new Promise<void>((resolve) => {
        wrote = resolve;
      });
      // A transaction takes its event id, then holds on (an engine round under load) while a later one commits.
      const slow = db.transaction().execute(async (trx) => {
        await recordUserEvent(trx, { userId, kind: 'slow', data: { n: 1 }, at: 1 });
        wrote();
        await committing;
      });
      await written;
      await recordUserEvent(db, { userId, kind: 'fast', data: { n: 2 }, at: 2 });
      expect(await relay.poll()).toBe(1);
      for (let k = 0; k < 3; k += 1) {
        time += 10_000;
        expect(await relay.poll()).toBe(0);
      }
      commit();
      await slow;
      expect(await relay.poll()).toBe(1);
      expect(got.map((event) => event.kind)).toEqual(['fast', 'slow']);
      expect(await relay.poll()).toBe(0);
    });
  }

  it('delivers nothing of a transaction that rolled back, and everything after it', async () => {
    const { db } = database.handle;
    const got: AccountEvent[] = [];
    const relay = new UserEventRelay(db, (_, event) => got.push(event), { intervalMs: 60_000, gapWaitMs: 0 });
    await relay.start();
    await db
      .transaction()
      .execute(async (trx) => {
        await recordUserEvent(trx, { userId, kind: 'undone', data: null, at: 1 });
        throw new Error('roll back');
      })
      .catch(() => {});
    await recordUserEvent(db, { userId, kind: 'kept', data: null, at: 2 });
    await relay.poll();
    await relay.poll();
    expect(got.map((event) => event.kind)).toEqual(['kept']);
  });
});
