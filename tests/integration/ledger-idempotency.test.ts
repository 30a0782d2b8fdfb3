import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withLedger } from '../../server/ledger';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { isLedgerError } from '../../server/ledger/errors';
import { type CreditRequest, Ledger, type Receipt } from '../../server/ledger/ledger';
import { type DatabaseHandle, openPostgres } from '../../server/platform/db/connect';
import { insertUser } from '../../server/testing';
import { DATABASES, openTestDatabase, type TestDatabase } from './harness';

/** A retried request (same user, same request id, same body) applies once; the same id with another body is refused. */
describe.each(DATABASES)('ledger request ids on %s', (kind) => {
  let database: TestDatabase;
  /** On PostgreSQL a 16-connection pool, so simultaneous retries really race. */
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

  const coin = async (userId: number) => (await ledger.balances(userId)).find((b) => b.type === 'coin')?.balance ?? 0;
  const entries = async (userId: number) =>
    (
      await withLedger(database.handle.db)
        .selectFrom('ledger_entries')
        .select('id')
        .where('user_id', '=', userId)
        .execute()
    ).length;
  const deposit = (userId: number, requestId: string, amount = 100): CreditRequest => ({
    userId,
    requestId,
    kind: 'deposit',
    currency: 'ETH',
    amount,
    from: 'deposits_clearing',
    to: 'coin',
  });
  const keyOf = (err: unknown) => (isLedgerError(err) ? err.key : String(err));

  it('the same request twice applies once and answers with the first receipt', async () => {
    const userId = await insertUser(database.handle);
    const first = await ledger.credit(deposit(userId, 'dep-1'));
    const second = await ledger.credit(deposit(userId, 'dep-1'));
    expect(first.replayed).toBe(false);
    expect(second).toEqual({ ...first, replayed: true });
    expect(await coin(userId)).toBe(100);
    expect(await entries(userId)).toBe(1);
  });

  it('the same id with another body is refused and changes nothing', async () => {
    const userId = await insertUser(database.handle);
    await ledger.credit(deposit(userId, 'dep-1'));
    const attempts: Array<() => Promise<Receipt>> = [
      () => ledger.credit(deposit(userId, 'dep-1', 101)),
      () => ledger.credit({ ...deposit(userId, 'dep-1'), to: 'trust' }),
      () => ledger.credit({ ...deposit(userId, 'dep-1'), memo: 'again' }),
      () => ledger.credit({ ...deposit(userId, 'dep-1'), book: 'simulator' }),
      () => ledger.debit({ ...deposit(userId, 'dep-1'), from: 'coin', to: 'fees' }),
      () => ledger.transfer({ userId, requestId: 'dep-1', currency: 'ETH', amount: 100, from: 'coin', to: 'option' }),
      () =>
        ledger.placeHold({ userId, requestId: 'dep-1', kind: 'withdrawal', currency: 'ETH', type: 'coin', amount: 1 }),
    ];
    for (const attempt of attempts) expect(await attempt().then(() => 'applied', keyOf)).toBe('requestIdReused');
    expect(await coin(userId)).toBe(100);
    expect(await entries(userId)).toBe(1);
  });

  it('request ids belong to their user', async () => {
    const a = await insertUser(database.handle);
    const b = await insertUser(database.handle);
    await ledger.credit(deposit(a, 'same'));
    expect((await ledger.credit(deposit(b, 'same', 5))).replayed).toBe(false);
    expect([await coin(a), await coin(b)]).toEqual([100, 5]);
  });

  it('a retried hold gets its hold back, and a retried post or void applies once', async () => {
    const userId = await insertUser(database.handle);
    await ledger.credit(deposit(userId, 'dep'));
    const hold = { userId, requestId: 'h', kind: 'withdrawal', currency: 'ETH', type: 'coin', amount: 60 } as const;
    const placed = await ledger.placeHold(hold);
    expect(await ledger.placeHold(hold)).toEqual({ ...placed, replayed: true });
    expect(await ledger.holds(userId)).toHaveLength(1);
    const post = {
      userId,
      requestId: 'approve',
      holdId: placed.holdId ?? 0,
      to: [
        { owner: { platform: 'withdrawals_clearing' }, amount: 59 },
        { owner: { platform: 'fees' }, amount: 1 },
      ],
    } as const;
    const posted = await ledger.postHold(post);
    expect(await ledger.postHold(post)).toEqual({ ...posted, replayed: true });
    expect(await coin(userId)).toBe(40);
    // After the hold is gone, a void under the post's id is another body; under a new id the hold is closed.
    expect(
      await ledger.voidHold({ userId, requestId: 'approve', holdId: post.holdId }).then(() => 'applied', keyOf),
    ).toBe('requestIdReused');
    expect(
      await ledger.voidHold({ userId, requestId: 'reject', holdId: post.holdId }).then(() => 'applied', keyOf),
    ).toBe('holdNotOpen');
  });

  it('20 simultaneous copies of one request apply once; a rival body under the same id is refused', async () => {
    const userId = await insertUser(database.handle);
    await ledger.credit(deposit(userId, 'funding', 1000));
    const request = { userId, requestId: 'race', currency: 'ETH', amount: 10, from: 'coin', to: 'option' } as const;
    const rival = { ...request, amount: 11 };
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => ledger.transfer(i % 4 === 3 ? rival : request)),
    );
    const receipts = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const refusals = results.flatMap((r) => (r.status === 'rejected' ? [keyOf(r.reason)] : []));
    // Whichever body committed first owns the id: its copies replay, the other body is refused.
    expect(receipts.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(receipts.map((r) => r.entryId)).size).toBe(1);
    expect(new Set(refusals)).toEqual(new Set(['requestIdReused']));
    const won = 1000 - (await coin(userId));
    expect([10, 11]).toContain(won);
    expect(receipts).toHaveLength(won === 10 ? 15 : 5);
    expect(describeProblems(await checkLedger(database.handle.db))).toEqual([]);
  });
});
