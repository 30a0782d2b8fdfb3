import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../platform/db/connect';
import { insertUser, openMemoryDatabase } from '../testing';
import { checkLedger, describeProblems, describeTotals } from './consistency';
import { Ledger } from './ledger';
import { withLedger } from './tables';

/**
 * The check must notice each kind of damage. The ledger itself cannot produce any of it, so the damage is done
 * by hand: balances are plain columns, and postings are written bypassing the service.
 */
describe('ledger consistency check', () => {
  let handle: DatabaseHandle;
  let ledger: Ledger;
  let user: number;
  let coinAccount: number;

  beforeEach(async () => {
    handle = await openMemoryDatabase();
    ledger = new Ledger(handle);
    user = await insertUser(handle);
    await ledger.credit({
      userId: user,
      requestId: 'd1',
      kind: 'deposit',
      currency: 'BTC',
      amount: 500,
      from: 'deposits_clearing',
      to: 'coin',
    });
    await ledger.placeHold({
      userId: user,
      requestId: 'h1',
      kind: 'withdrawal',
      currency: 'BTC',
      type: 'coin',
      amount: 200,
    });
    const row = await withLedger(handle.db)
      .selectFrom('ledger_accounts')
      .select('id')
      .where('user_id', '=', user)
      .executeTakeFirstOrThrow();
    coinAccount = row.id;
  });
  afterEach(() => handle.db.destroy());

  it('finds nothing wrong in a sound ledger, and totals each currency', async () => {
    const report = await checkLedger(handle.db);
    expect(report.problems).toEqual([]);
    expect(report).toMatchObject({ accounts: 2, postings: 2, openHolds: 1 });
    expect(report.currencies).toEqual([{ book: 'real', currency: 'BTC', postingSum: 0n, held: 200n, openHolds: 200n }]);
    expect(describeTotals(report)[1]).toMatch(/^real +BTC +0\.00000000 +0\.00000200 +0\.00000200$/);
  });

  it('reports a balance that differs from its postings', async () => {
    await sql`update ledger_accounts set balance = balance + 7 where id = ${coinAccount}`.execute(handle.db);
    const report = await checkLedger(handle.db);
    expect(report.problems).toEqual([
      { kind: 'balanceMismatch', accountId: coinAccount, stored: 507n, computed: 500n },
    ]);
    expect(describeProblems(report)).toEqual([`account ${coinAccount}: balance 507 but postings sum to 500`]);
  });

  it('reports held amounts that differ from the open holds', async () => {
    await sql`update ledger_accounts set held = 100 where id = ${coinAccount}`.execute(handle.db);
    expect((await checkLedger(handle.db)).problems).toEqual([
      { kind: 'heldMismatch', accountId: coinAccount, stored: 100n, openHolds: 200n },
    ]);
  });

  it('reports postings that do not balance, per entry and per currency', async () => {
    const entry = await withLedger(handle.db)
      .insertInto('ledger_entries')
      .values({ user_id: user, kind: 'adjustment', request_id: 'bad', request_digest: '', memo: null, created_at: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await withLedger(handle.db)
      .insertInto('ledger_postings')
      .values({ entry_id: entry.id, account_id: coinAccount, amount: 3 })
      .execute();
    await sql`update ledger_accounts set balance = balance + 3 where id = ${coinAccount}`.execute(handle.db);
    const problems = (await checkLedger(handle.db)).problems;
    expect(problems).toContainEqual({ kind: 'currencyUnbalanced', book: 'real', currency: 'BTC', sum: 3n });
    expect(problems).toContainEqual({
      kind: 'entryUnbalanced',
      entryId: entry.id,
      book: 'real',
      currency: 'BTC',
      sum: 3n,
    });
    expect(problems).toHaveLength(2);
  });

  it('reports balances far beyond 2^53 exactly', async () => {
    await sql`update ledger_accounts set balance = 9007199254740993 where id = ${coinAccount}`.execute(handle.db);
    expect((await checkLedger(handle.db)).problems).toEqual([
      { kind: 'balanceMismatch', accountId: coinAccount, stored: 9007199254740993n, computed: 500n },
    ]);
  });
});
