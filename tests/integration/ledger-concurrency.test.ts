import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { isLedgerError } from '../../server/ledger/errors';
import { Ledger, type Receipt } from '../../server/ledger/ledger';
import { type DatabaseHandle, openPostgres } from '../../server/platform/db/connect';
import { insertUser } from '../../server/testing';
import { DATABASES, openTestDatabase, type TestDatabase } from './harness';
import { type BurstConfig, runBurst } from './ledger-burst';

/**
 * 100 requests for the same funds at once. On PostgreSQL they run on a pool of 16 connections, so up to 16
 * transactions really do race for the same rows; on SQLite every writer serialises on the database lock, here
 * within one process and, in the last test, across four.
 */
const FUNDS = 1000;
const EACH = 30;
const ALLOWED = Math.floor(FUNDS / EACH);
const TRIES = 100;

/** The refusal keys of the rejected results, and how many succeeded. */
function tally(results: PromiseSettledResult<Receipt>[]) {
  const refusals = new Map<string, number>();
  for (const r of results) {
    if (r.status === 'rejected') {
      if (!isLedgerError(r.reason)) throw r.reason;
      refusals.set(r.reason.key, (refusals.get(r.reason.key) ?? 0) + 1);
    }
  }
  return { ok: results.filter((r) => r.status === 'fulfilled').length, refusals: Object.fromEntries(refusals) };
}

describe.each(DATABASES)('ledger under contention on %s', (kind) => {
  let database: TestDatabase;
  /** The handle the racing requests use: a separate 16-connection pool on PostgreSQL. */
  let racing: DatabaseHandle;
  let ledger: Ledger;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    racing = database.handle;
    if (kind === 'postgres') {
      const schema = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.handle.db);
      racing = openPostgres({
        connectionString: process.env.TEST_DATABASE_URL,
        options: `-c search_path=${schema.rows[0]?.schema}`,
        max: 16,
      });
    }
    ledger = new Ledger(racing);
  });
  afterAll(async () => {
    if (racing && racing !== database?.handle) await racing.db.destroy();
    await database?.close();
  });

  async function fundedUser(amount = FUNDS): Promise<number> {
    const userId = await insertUser(database.handle);
    await ledger.credit({
      userId,
      requestId: 'funding',
      kind: 'deposit',
      currency: 'USDT',
      amount,
      from: 'deposits_clearing',
      to: 'coin',
    });
    return userId;
  }

  const expectSound = async () => expect(describeProblems(await checkLedger(database.handle.db))).toEqual([]);

  it('100 simultaneous transfers of the same funds: exactly as many succeed as the balance allows', async () => {
    const userId = await fundedUser();
    const results = await Promise.allSettled(
      Array.from({ length: TRIES }, (_, i) =>
        ledger.transfer({ userId, requestId: `t${i}`, currency: 'USDT', amount: EACH, from: 'coin', to: 'option' }),
      ),
    );
    expect(tally(results)).toEqual({ ok: ALLOWED, refusals: { insufficientBalance: TRIES - ALLOWED } });
    const balances = await ledger.balances(userId);
    expect(balances.map((b) => [b.type, b.balance])).toEqual([
      ['coin', FUNDS - ALLOWED * EACH],
      ['option', ALLOWED * EACH],
    ]);
    await expectSound();
  });

  it('100 simultaneous holds and debits of the same funds: never more than the balance', async () => {
    const userId = await fundedUser();
    const results = await Promise.allSettled(
      Array.from({ length: TRIES }, (_, i) =>
        i % 2 === 0
          ? ledger.placeHold({
              userId,
              requestId: `h${i}`,
              kind: 'order',
              currency: 'USDT',
              type: 'coin',
              amount: EACH,
            })
          : ledger.debit({
              userId,
              requestId: `d${i}`,
              kind: 'fee',
              currency: 'USDT',
              amount: EACH,
              from: 'coin',
              to: 'fees',
            }),
      ),
    );
    expect(tally(results)).toEqual({ ok: ALLOWED, refusals: { insufficientBalance: TRIES - ALLOWED } });
    const [coin] = await ledger.balances(userId);
    const holds = await ledger.holds(userId, 'open');
    expect(coin?.held).toBe(holds.length * EACH);
    expect(coin?.balance).toBe(FUNDS - (ALLOWED - holds.length) * EACH);
    expect(coin?.available).toBe(FUNDS - ALLOWED * EACH);
    await expectSound();
  });

  it('100 simultaneous resolutions of one hold: exactly one wins', async () => {
    const userId = await fundedUser();
    const placed = await ledger.placeHold({
      userId,
      requestId: 'w',
      kind: 'withdrawal',
      currency: 'USDT',
      type: 'coin',
      amount: 400,
    });
    const holdId = placed.holdId ?? 0;
    const results = await Promise.allSettled(
      Array.from({ length: TRIES }, (_, i) =>
        i % 2 === 0
          ? ledger.voidHold({ userId, requestId: `v${i}`, holdId })
          : ledger.postHold({
              userId,
              requestId: `p${i}`,
              holdId,
              to: [
                { owner: { platform: 'withdrawals_clearing' }, amount: 390 },
                { owner: { platform: 'fees' }, amount: 10 },
              ],
            }),
      ),
    );
    expect(tally(results)).toEqual({ ok: 1, refusals: { holdNotOpen: TRIES - 1 } });
    const [coin] = await ledger.balances(userId);
    const [hold] = await ledger.holds(userId);
    expect(coin).toMatchObject({ held: 0, balance: hold?.state === 'posted' ? FUNDS - 400 : FUNDS });
    await expectSound();
  });

  it('payments crossing between two users in both directions neither deadlock nor lose money', async () => {
    const alice = await fundedUser(100_000);
    const bob = await fundedUser(100_000);
    const pay = (from: number, to: number, i: number) =>
      ledger.post({
        userId: from,
        requestId: `pay${i}`,
        kind: 'settlement',
        legs: [
          { owner: { userId: from, type: 'coin' }, currency: 'USDT', amount: -(i + 2) },
          { owner: { userId: to, type: 'coin' }, currency: 'USDT', amount: i + 1 },
          { owner: { platform: 'fees' }, currency: 'USDT', amount: 1 },
        ],
      });
    const results = await Promise.allSettled(
      Array.from({ length: TRIES }, (_, i) => (i % 2 === 0 ? pay(alice, bob, i) : pay(bob, alice, i))),
    );
    expect(tally(results)).toEqual({ ok: TRIES, refusals: {} });
    const total = async (userId: number) => (await ledger.balances(userId))[0]?.balance ?? 0;
    // Everyone paid one unit of fee per payment; what moved between them nets out.
    expect((await total(alice)) + (await total(bob))).toBe(200_000 - TRIES);
    await expectSound();
  });
});

/** SQLite across processes: each writer takes the database lock with BEGIN IMMEDIATE before it reads a balance. */
describe('ledger under contention from several processes on sqlite', () => {
  let database: TestDatabase;
  let ledger: Ledger;
  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    ledger = new Ledger(database.handle);
  });
  afterAll(() => database?.close());

  it('four processes draining the same funds at once: still exactly the balance', async () => {
    const userId = await insertUser(database.handle);
    await ledger.credit({
      userId,
      requestId: 'funding',
      kind: 'deposit',
      currency: 'USDT',
      amount: FUNDS,
      from: 'deposits_clearing',
      to: 'coin',
    });
    const file = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(
      database.handle.db,
    );
    const burst = (prefix: string): BurstConfig => ({
      database: { kind: 'sqlite', file: file.rows[0]?.file ?? '' },
      userId,
      prefix,
      amount: EACH,
      mode: 'drain',
      count: TRIES / 4,
    });
    const outputs = await Promise.all(['a', 'b', 'c', 'd'].map((prefix) => runBurst(burst(prefix))));
    const lines = outputs.flat();
    expect(lines).toHaveLength(TRIES);
    expect(lines.filter((line) => line.startsWith('ack ')).length).toBe(ALLOWED);
    expect(lines.filter((line) => line.endsWith(' insufficientBalance')).length).toBe(TRIES - ALLOWED);
    expect((await ledger.balances(userId)).map((b) => b.balance)).toEqual([FUNDS - ALLOWED * EACH, ALLOWED * EACH]);
    expect(describeProblems(await checkLedger(database.handle.db))).toEqual([]);
  }, 60_000);
});
