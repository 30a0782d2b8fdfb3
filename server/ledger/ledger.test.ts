import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../platform/db/connect';
import { writeTransaction } from '../platform/db/transaction';
import { insertUser, openMemoryDatabase } from '../testing';
import { parseAmount } from './amounts';
import { checkLedger, describeProblems } from './consistency';
import { LedgerError } from './errors';
import { Ledger } from './ledger';

/** A row of another table, standing for the product's own state change in the same transaction. */
const auditRow = (action: string) => ({
  at: 1,
  operator: 'test',
  action,
  subject_type: 'test',
  subject_id: '1',
  detail: '{}',
});

const usdt = (text: string) => {
  const parsed = parseAmount('USDT', text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.units;
};

/** The key of the LedgerError a call is refused with. */
async function refusal(call: Promise<unknown>): Promise<string> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof LedgerError)) throw new Error(`expected a LedgerError, got ${String(err)}`);
  return err.key;
}

describe('ledger', () => {
  let handle: DatabaseHandle;
  let ledger: Ledger;
  let alice: number;
  let bob: number;
  let t = 1_700_000_000_000;
  let n = 0;
  const rid = () => `r${++n}`;
  const available = async (userId: number, type = 'coin', currency = 'USDT', book = 'real') =>
    (await ledger.balances(userId)).find((b) => b.type === type && b.currency === currency && b.book === book)
      ?.available ?? 0;
  const deposit = (userId: number, amount: number) =>
    ledger.credit({
      userId,
      requestId: rid(),
      kind: 'deposit',
      currency: 'USDT',
      amount,
      from: 'deposits_clearing',
      to: 'coin',
    });

  beforeEach(async () => {
    handle = await openMemoryDatabase();
    ledger = new Ledger(handle, () => ++t);
    alice = await insertUser(handle);
    bob = await insertUser(handle);
  });
  afterEach(async () => {
    const report = await checkLedger(handle.db);
    expect(describeProblems(report)).toEqual([]);
    await handle.db.destroy();
  });

  it('credits a deposit from deposits clearing and records both sides', async () => {
    const receipt = await deposit(alice, usdt('100'));
    expect(receipt).toMatchObject({ holdId: null, replayed: false });
    expect(await ledger.balances(alice)).toEqual([
      { book: 'real', type: 'coin', currency: 'USDT', balance: usdt('100'), held: 0, available: usdt('100') },
    ]);
    const history = await ledger.history(alice);
    expect(history).toEqual([
      expect.objectContaining({ entryId: receipt.entryId, kind: 'deposit', type: 'coin', amount: usdt('100') }),
    ]);
    const report = await checkLedger(handle.db);
    expect(report.currencies).toEqual([{ book: 'real', currency: 'USDT', postingSum: 0n, held: 0n, openHolds: 0n }]);
    expect(report.postings).toBe(2);
  });

  it('transfers between account types and refuses what the source lacks', async () => {
    await deposit(alice, usdt('10'));
    await ledger.transfer({
      userId: alice,
      requestId: rid(),
      currency: 'USDT',
      amount: usdt('4'),
      from: 'coin',
      to: 'option',
    });
    expect(await available(alice, 'coin')).toBe(usdt('6'));
    expect(await available(alice, 'option')).toBe(usdt('4'));
    const over = { userId: alice, currency: 'USDT', amount: usdt('6.000001'), from: 'coin', to: 'trust' } as const;
    expect(await refusal(ledger.transfer({ ...over, requestId: rid() }))).toBe('insufficientBalance');
    expect(await refusal(ledger.transfer({ ...over, requestId: rid(), to: 'coin' }))).toBe('transferSameAccount');
    expect(await refusal(ledger.transfer({ ...over, requestId: rid(), amount: 0 }))).toBe('amountNotPositive');
    expect(await refusal(ledger.transfer({ ...over, requestId: rid(), amount: 1.5 }))).toBe('amountInvalid');
    expect(await refusal(ledger.transfer({ ...over, requestId: rid(), currency: 'EUR' }))).toBe('currencyUnsupported');
    const badType = { ...over, requestId: rid(), to: 'savings' as 'trust' };
    expect(await refusal(ledger.transfer(badType))).toBe('accountTypeInvalid');
    expect(await refusal(ledger.transfer({ ...over, requestId: '' }))).toBe('requestIdInvalid');
    expect(await refusal(ledger.transfer({ ...over, requestId: 'x'.repeat(65) }))).toBe('requestIdInvalid');
    // A refused request leaves nothing behind, so the same id may be used again once it can succeed.
    const requestId = rid();
    expect(await refusal(ledger.transfer({ ...over, requestId }))).toBe('insufficientBalance');
    await ledger.transfer({ ...over, requestId, amount: usdt('6') });
    expect(await available(alice, 'coin')).toBe(0);
  });

  it('applies a retried request once and refuses its id with another body', async () => {
    const request = {
      userId: alice,
      requestId: 'dep-1',
      kind: 'deposit',
      currency: 'USDT',
      amount: 5,
      from: 'deposits_clearing',
      to: 'coin',
    } as const;
    const first = await ledger.credit(request);
    const again = await ledger.credit(request);
    expect(again).toEqual({ ...first, replayed: true });
    expect(await available(alice)).toBe(5);
    expect(await refusal(ledger.credit({ ...request, amount: 6 }))).toBe('requestIdReused');
    expect(await refusal(ledger.credit({ ...request, memo: 'other' }))).toBe('requestIdReused');
    expect(await refusal(ledger.debit({ ...request, from: 'coin', to: 'fees', kind: 'fee' }))).toBe('requestIdReused');
    // Request ids are per user.
    await ledger.credit({ ...request, userId: bob });
    expect(await available(bob)).toBe(5);
  });

  it('holds funds for a withdrawal, then posts it to withdrawals clearing with a fee, exactly once', async () => {
    await deposit(alice, usdt('100'));
    const placed = await ledger.placeHold({
      userId: alice,
      requestId: rid(),
      kind: 'withdrawal',
      currency: 'USDT',
      type: 'coin',
      amount: usdt('30'),
      ref: 'W1',
    });
    expect(placed.holdId).toEqual(expect.any(Number));
    const holdId = placed.holdId ?? 0;
    expect(await ledger.balances(alice)).toEqual([
      expect.objectContaining({ balance: usdt('100'), held: usdt('30'), available: usdt('70') }),
    ]);
    expect(
      await refusal(
        ledger.transfer({
          userId: alice,
          requestId: rid(),
          currency: 'USDT',
          amount: usdt('71'),
          from: 'coin',
          to: 'option',
        }),
      ),
    ).toBe('insufficientBalance');

    // Someone else's hold does not exist for them.
    expect(await refusal(ledger.voidHold({ userId: bob, requestId: rid(), holdId }))).toBe('holdNotFound');
    expect(
      await refusal(
        ledger.postHold({
          userId: alice,
          requestId: rid(),
          holdId,
          to: [{ owner: { platform: 'fees' }, amount: usdt('31') }],
        }),
      ),
    ).toBe('amountTooLarge');

    const post = {
      userId: alice,
      requestId: rid(),
      holdId,
      to: [
        { owner: { platform: 'withdrawals_clearing' }, amount: usdt('29') },
        { owner: { platform: 'fees' }, amount: usdt('1') },
      ],
    } as const;
    const posted = await ledger.postHold(post);
    expect(await ledger.postHold(post)).toEqual({ ...posted, replayed: true });
    expect(await refusal(ledger.voidHold({ userId: alice, requestId: rid(), holdId }))).toBe('holdNotOpen');
    expect(await refusal(ledger.postHold({ ...post, requestId: rid() }))).toBe('holdNotOpen');
    // The refused transfer above left an empty option account behind: accounts appear when first named.
    expect(await ledger.balances(alice)).toEqual([
      expect.objectContaining({ type: 'coin', balance: usdt('70'), held: 0, available: usdt('70') }),
      expect.objectContaining({ type: 'option', balance: 0, held: 0, available: 0 }),
    ]);
    expect(await ledger.holds(alice)).toEqual([expect.objectContaining({ id: holdId, state: 'posted', ref: 'W1' })]);
  });

  it('voids a hold back to available, and posts part of a hold releasing the rest', async () => {
    await deposit(alice, 1000);
    const hold = (amount: number) =>
      ledger.placeHold({ userId: alice, requestId: rid(), kind: 'order', currency: 'USDT', type: 'coin', amount });
    const a = (await hold(600)).holdId ?? 0;
    expect(await refusal(hold(401))).toBe('insufficientBalance');
    await ledger.voidHold({ userId: alice, requestId: rid(), holdId: a });
    expect(await available(alice)).toBe(1000);
    const b = (await hold(1000)).holdId ?? 0;
    // A C2C-style payout: part of the hold to another user's coin account, the rest released.
    await ledger.postHold({
      userId: alice,
      requestId: rid(),
      holdId: b,
      to: [{ owner: { userId: bob, type: 'coin' }, amount: 250 }],
    });
    expect(await available(alice)).toBe(750);
    expect(await available(bob)).toBe(250);
  });

  it('keeps the simulator book apart from real money', async () => {
    await ledger.credit({
      userId: alice,
      requestId: rid(),
      kind: 'simulator_grant',
      book: 'simulator',
      currency: 'USDT',
      amount: usdt('10000'),
      from: 'simulator_funding',
      to: 'option',
    });
    expect(await available(alice, 'option', 'USDT', 'simulator')).toBe(usdt('10000'));
    expect(await available(alice, 'option', 'USDT', 'real')).toBe(0);
    expect(
      await refusal(
        ledger.transfer({ userId: alice, requestId: rid(), currency: 'USDT', amount: 1, from: 'option', to: 'coin' }),
      ),
    ).toBe('insufficientBalance');
    const report = await checkLedger(handle.db);
    expect(report.currencies.map((c) => [c.book, c.currency, c.postingSum])).toEqual([
      ['real', 'USDT', 0n],
      ['simulator', 'USDT', 0n],
    ]);
    const real = await ledger.balances(alice, 'real');
    expect(real.map((b) => [b.type, b.balance])).toEqual([
      ['coin', 0],
      ['option', 0],
    ]);
  });

  it('posts balanced multi-leg entries and refuses unbalanced ones as a bug', async () => {
    await deposit(alice, 1000);
    await ledger.post({
      userId: alice,
      requestId: rid(),
      kind: 'settlement',
      legs: [
        { owner: { userId: alice, type: 'coin' }, currency: 'USDT', amount: -100 },
        { owner: { userId: alice, type: 'option' }, currency: 'USDT', amount: 98 },
        { owner: { platform: 'fees' }, currency: 'USDT', amount: 2 },
      ],
    });
    expect(await available(alice, 'option')).toBe(98);
    await expect(
      ledger.post({
        userId: alice,
        requestId: rid(),
        kind: 'adjustment',
        legs: [
          { owner: { userId: alice, type: 'coin' }, currency: 'USDT', amount: -100 },
          { owner: { platform: 'fees' }, currency: 'USDT', amount: 99 },
        ],
      }),
    ).rejects.toThrow(/unbalanced/);
    expect(await available(alice)).toBe(900);
  });

  it('keeps every balance an exact number', async () => {
    const big = 1_000_000_000_000_000;
    for (let i = 0; i < 9; i++) await deposit(alice, big);
    expect(await refusal(deposit(alice, big))).toBe('amountTooLarge');
    expect(await available(alice)).toBe(9 * big);
  });

  it("joins a caller's transaction: its postings commit with the caller's change or roll back with it", async () => {
    await deposit(alice, usdt('100'));
    const transfer = (trx: Parameters<Ledger['within']>[0], requestId: string) =>
      ledger
        .within(trx)
        .transfer({ userId: alice, requestId, currency: 'USDT', amount: usdt('30'), from: 'coin', to: 'option' });

    // The caller fails after the ledger call: nothing of either stays.
    await expect(
      writeTransaction(handle, async (trx) => {
        await transfer(trx, 'joined-1');
        await trx.insertInto('ops_audit').values(auditRow('kept?')).execute();
        throw new Error('the product step failed');
      }),
    ).rejects.toThrow('the product step failed');
    expect(await available(alice)).toBe(usdt('100'));
    expect(await available(alice, 'option')).toBe(0);
    expect(await handle.db.selectFrom('ops_audit').select('id').execute()).toHaveLength(0);

    // A ledger refusal inside the caller's transaction rolls back the caller's own writes too.
    expect(
      await refusal(
        writeTransaction(handle, async (trx) => {
          await trx.insertInto('ops_audit').values(auditRow('before the refusal')).execute();
          return ledger.within(trx).transfer({
            userId: alice,
            requestId: 'joined-2',
            currency: 'USDT',
            amount: usdt('1000'),
            from: 'coin',
            to: 'option',
          });
        }),
      ),
    ).toBe('insufficientBalance');
    expect(await handle.db.selectFrom('ops_audit').select('id').execute()).toHaveLength(0);

    // Both commit together; the same request id later replays, inside a transaction or not.
    await writeTransaction(handle, async (trx) => {
      await transfer(trx, 'joined-3');
      await trx.insertInto('ops_audit').values(auditRow('committed')).execute();
    });
    expect(await available(alice)).toBe(usdt('70'));
    expect(await available(alice, 'option')).toBe(usdt('30'));
    const again = await writeTransaction(handle, (trx) => transfer(trx, 'joined-3'));
    expect(again.replayed).toBe(true);
    expect(await available(alice)).toBe(usdt('70'));
    expect(describeProblems(await checkLedger(handle.db))).toEqual([]);
  });

  it('refuses edits of history in the database itself', async () => {
    await deposit(alice, 5);
    const placed = await ledger.placeHold({
      userId: alice,
      requestId: rid(),
      kind: 'withdrawal',
      currency: 'USDT',
      type: 'coin',
      amount: 5,
    });
    await ledger.voidHold({ userId: alice, requestId: rid(), holdId: placed.holdId ?? 0 });
    await expect(sql`update ledger_postings set amount = amount + 1`.execute(handle.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from ledger_postings`.execute(handle.db)).rejects.toThrow(/append-only/);
    await expect(sql`update ledger_entries set memo = 'x'`.execute(handle.db)).rejects.toThrow(/append-only/);
    await expect(sql`update ledger_holds set state = 'open'`.execute(handle.db)).rejects.toThrow(/already resolved/);
    await expect(sql`delete from ledger_holds`.execute(handle.db)).rejects.toThrow(/append-only/);
    // The database refuses a negative available balance even when the service is bypassed.
    await expect(
      sql`update ledger_accounts set held = balance + 1 where user_id is not null`.execute(handle.db),
    ).rejects.toThrow(/CHECK/i);
  });
});
