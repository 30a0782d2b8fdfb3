import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../migrations';
import type { DatabaseHandle } from '../platform/db/connect';
import { writeTransaction } from '../platform/db/transaction';
import { insertUser, openMemoryDatabase, openPostgresSchema } from '../testing';
import type { PlatformAccountType, UserAccountType } from './accounts';
import { checkLedger, describeProblems } from './consistency';
import { LedgerError } from './errors';
import { type BatchRequest, Ledger, type Receipt } from './ledger';
import { withLedger } from './tables';

/**
 * `settleBatch` against the calls one by one: the same requests must leave the same rows (balances, holds, entries,
 * postings), replay the same way and be refused the same way. SQLite always; PostgreSQL when TEST_DATABASE_URL is set.
 */

type Opened = { handle: DatabaseHandle; close: () => Promise<void> };
const targets: Array<[string, () => Promise<Opened>]> = [
  [
    'sqlite',
    async () => {
      const handle = await openMemoryDatabase();
      return { handle, close: () => handle.db.destroy() };
    },
  ],
];
const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  targets.push([
    'postgres',
    async () => {
      const opened = await openPostgresSchema(pgUrl);
      await migrateToLatest(opened.handle);
      return opened;
    },
  ]);
}

/** The same fixed moment for both sides: a batch is one moment, calls one by one would otherwise differ in time. */
const AT = 1_700_000_000_000;

/** A small deterministic generator (mulberry32), so a failing seed can be replayed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { int: (n: number) => Math.floor(next() * n), chance: (p: number) => next() < p };
}

/** Everything the ledger wrote, by keys rather than ids (account ids depend on the order accounts were created). */
async function snapshot(handle: DatabaseHandle) {
  const db = handle.db;
  const accounts = await withLedger(db).selectFrom('ledger_accounts').selectAll().execute();
  const keyOf = new Map(accounts.map((a) => [a.id, `${a.user_id ?? 'platform'}/${a.book}/${a.type}/${a.currency}`]));
  const entries = await withLedger(db).selectFrom('ledger_entries').selectAll().orderBy('id').execute();
  const entryKey = new Map(entries.map((e) => [e.id, `${e.user_id}:${e.request_id}`]));
  const postings = await withLedger(db).selectFrom('ledger_postings').selectAll().orderBy('id').execute();
  const holds = await withLedger(db).selectFrom('ledger_holds').selectAll().orderBy('id').execute();
  return {
    accounts: accounts
      .filter((a) => a.balance !== 0 || a.held !== 0)
      .map((a) => ({ key: keyOf.get(a.id), balance: a.balance, held: a.held }))
      .sort((x, y) => String(x.key).localeCompare(String(y.key))),
    entries: entries.map((e) => ({
      key: entryKey.get(e.id),
      kind: e.kind,
      digest: e.request_digest,
      memo: e.memo,
      at: e.created_at,
    })),
    postings: postings.map((p) => ({
      entry: entryKey.get(p.entry_id),
      account: keyOf.get(p.account_id),
      amount: p.amount,
    })),
    holds: holds.map((h) => ({
      id: h.id,
      account: keyOf.get(h.account_id),
      amount: h.amount,
      state: h.state,
      resolvedBy: h.resolved_entry_id === null ? null : entryKey.get(h.resolved_entry_id),
      resolvedAt: h.resolved_at,
    })),
  };
}

/** One request applied through the single-request methods. */
function applyOne(ledger: Ledger, request: BatchRequest): Promise<Receipt> {
  if (request.op === 'postHold') return ledger.postHold(request);
  if (request.op === 'voidHold') return ledger.voidHold(request);
  return ledger.post(request);
}

async function refusal(call: Promise<unknown>): Promise<string> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof LedgerError)) throw new Error(`expected a LedgerError, got ${String(err)}`);
  return err.key;
}

const CURRENCIES = ['USDT', 'BTC'] as const;
const USERS = 5;
const HOLDS = 40;

describe.each(targets)('ledger batches on %s', (_name, open) => {
  let one: Opened;
  let two: Opened;
  /** `one` takes batches, `two` the same requests one by one. */
  let batched: Ledger;
  let single: Ledger;
  let users: number[];
  let holdIds: number[];

  /** The same users, funds and open holds on both databases (so hold ids match). */
  beforeEach(async () => {
    one = await open();
    two = await open();
    batched = new Ledger(one.handle, () => AT);
    single = new Ledger(two.handle, () => AT);
    users = [];
    for (let u = 0; u < USERS; u++) {
      const a = await insertUser(one.handle);
      const b = await insertUser(two.handle);
      expect(a).toBe(b);
      users.push(a);
    }
    holdIds = [];
    for (const ledger of [batched, single]) {
      const ids: number[] = [];
      for (const userId of users) {
        for (const currency of CURRENCIES) {
          await ledger.credit({
            userId,
            requestId: `fund-${currency}`,
            kind: 'deposit',
            currency,
            amount: 1_000_000,
            from: 'deposits_clearing',
            to: 'coin',
          });
        }
      }
      for (let h = 0; h < HOLDS; h++) {
        const receipt = await ledger.placeHold({
          userId: users[h % USERS] ?? 0,
          requestId: `hold-${h}`,
          kind: 'order',
          currency: CURRENCIES[h % 2] ?? 'USDT',
          type: 'coin',
          amount: 1_000 + h * 10,
        });
        ids.push(receipt.holdId ?? 0);
      }
      if (holdIds.length === 0) holdIds = ids;
      else expect(ids).toEqual(holdIds);
    }
  });
  afterEach(async () => {
    for (const opened of [one, two]) {
      expect(describeProblems(await checkLedger(opened.handle.db))).toEqual([]);
      await opened.close();
    }
  });

  /**
   * A random valid sequence: every hold paid out (to the desk, fees and other users, part released) or voided, and
   * entries of any shape in between, including user debits that only the earlier requests of the batch make
   * possible.
   */
  function randomRequests(seed: number): BatchRequest[] {
    const rnd = random(seed);
    const requests: BatchRequest[] = [];
    const available = new Map<string, number>();
    const key = (userId: number, type: string, currency: string) => `${userId}/${type}/${currency}`;
    for (const userId of users) {
      for (const currency of CURRENCIES) available.set(key(userId, 'coin', currency), 1_000_000);
    }
    // Funds under the holds are not available; holds below are spent in a shuffled order.
    for (let h = 0; h < HOLDS; h++) {
      const k = key(users[h % USERS] ?? 0, 'coin', CURRENCIES[h % 2] ?? 'USDT');
      available.set(k, (available.get(k) ?? 0) - (1_000 + h * 10));
    }
    const order = holdIds.map((id, h) => ({ id, h, sort: rnd.int(1_000_000) })).sort((x, y) => x.sort - y.sort);
    let n = 0;
    const platform = (p: PlatformAccountType) => ({ platform: p });
    for (const { id, h } of order) {
      const userId = users[h % USERS] ?? 0;
      const currency = CURRENCIES[h % 2] ?? 'USDT';
      const amount = 1_000 + h * 10;
      if (rnd.chance(0.25)) {
        requests.push({ op: 'voidHold', userId, requestId: `void-${h}`, holdId: id });
        const k = key(userId, 'coin', currency);
        available.set(k, (available.get(k) ?? 0) + amount);
      } else {
        const toDesk = 1 + rnd.int(amount / 2);
        const toFees = rnd.int(amount / 4);
        const other = users[(h + 1 + rnd.int(USERS - 1)) % USERS] ?? 0;
        const toOther = rnd.int(amount / 8);
        const to = [
          { owner: platform('spot_desk'), amount: toDesk },
          ...(toFees > 0 ? [{ owner: platform('fees'), amount: toFees }] : []),
          ...(toOther > 0 ? [{ owner: { userId: other, type: 'trust' as UserAccountType }, amount: toOther }] : []),
        ];
        requests.push({ op: 'postHold', userId, requestId: `fill-${h}`, holdId: id, to, memo: `hold ${h}` });
        const k = key(userId, 'coin', currency);
        available.set(k, (available.get(k) ?? 0) + amount - toDesk - toFees - toOther);
        const o = key(other, 'trust', currency);
        available.set(o, (available.get(o) ?? 0) + toOther);
      }
      // An entry in between: the desk pays a user, or a user spends what it has (sometimes all of it).
      if (rnd.chance(0.6)) {
        const payee = users[rnd.int(USERS)] ?? 0;
        const cur = CURRENCIES[rnd.int(2)] ?? 'USDT';
        const pay = 1 + rnd.int(5_000);
        const fee = rnd.int(100);
        requests.push({
          op: 'post',
          userId: payee,
          requestId: `trade-${n++}`,
          kind: 'trade',
          legs: [
            { owner: platform('spot_desk'), currency: cur, amount: -(pay + fee) },
            { owner: { userId: payee, type: 'coin' }, currency: cur, amount: pay },
            ...(fee > 0 ? [{ owner: platform('fees'), currency: cur, amount: fee }] : []),
          ],
        });
        const k = key(payee, 'coin', cur);
        available.set(k, (available.get(k) ?? 0) + pay);
      }
      if (rnd.chance(0.3)) {
        const spender = users[rnd.int(USERS)] ?? 0;
        const cur = CURRENCIES[rnd.int(2)] ?? 'USDT';
        const spendable = available.get(key(spender, 'trust', cur)) ?? 0;
        if (spendable > 0) {
          const spend = rnd.chance(0.3) ? spendable : 1 + rnd.int(spendable);
          requests.push({
            op: 'post',
            userId: spender,
            requestId: `spend-${n++}`,
            kind: 'penalty',
            legs: [
              { owner: { userId: spender, type: 'trust' }, currency: cur, amount: -spend },
              { owner: platform('penalties'), currency: cur, amount: spend },
            ],
          });
          available.set(key(spender, 'trust', cur), spendable - spend);
        }
      }
    }
    return requests;
  }

  const settle = (requests: readonly BatchRequest[]) =>
    writeTransaction(one.handle, (trx) => batched.within(trx).settleBatch(requests));
  const oneByOne = async (requests: readonly BatchRequest[]) => {
    const receipts: Receipt[] = [];
    for (const request of requests) receipts.push(await applyOne(single, request));
    return receipts;
  };

  it.each([1, 2, 3])('applies a random batch exactly as the same requests one by one (seed %i)', async (seed) => {
    const requests = randomRequests(seed * 7919);
    const receipts = await settle(requests);
    const expected = await oneByOne(requests);
    expect(receipts.map((r) => [r.replayed, r.holdId, r.createdAt])).toEqual(
      expected.map((r) => [r.replayed, r.holdId, r.createdAt]),
    );
    const after = await snapshot(one.handle);
    expect(after).toEqual(await snapshot(two.handle));
    expect(after.holds.every((h) => h.state !== 'open')).toBe(true);
    expect(after.entries.length).toBeGreaterThan(HOLDS + 2 * USERS * CURRENCIES.length);
  });

  it('works without a caller transaction, and in several batches', async () => {
    const requests = randomRequests(42);
    const cut = Math.floor(requests.length / 3);
    await batched.settleBatch(requests.slice(0, cut));
    await batched.settleBatch(requests.slice(cut));
    await oneByOne(requests);
    expect(await snapshot(one.handle)).toEqual(await snapshot(two.handle));
  });

  it('changes nothing when a batch is replayed, and applies only the new part of a partly replayed one', async () => {
    const requests = randomRequests(3);
    const half = Math.floor(requests.length / 2);
    const first = await settle(requests.slice(0, half));
    const again = await settle(requests.slice(0, half));
    expect(again.every((r) => r.replayed)).toBe(true);
    expect(again.map((r) => [r.entryId, r.createdAt])).toEqual(first.map((r) => [r.entryId, r.createdAt]));
    const whole = await settle(requests);
    expect(whole.map((r) => r.replayed)).toEqual(requests.map((_, i) => i < half));
    expect(whole.slice(0, half).map((r) => r.entryId)).toEqual(first.map((r) => r.entryId));
    await oneByOne(requests);
    // The single calls replay the same way.
    expect((await oneByOne(requests)).every((r) => r.replayed)).toBe(true);
    expect(await snapshot(one.handle)).toEqual(await snapshot(two.handle));
  });

  it('treats a request repeated within the batch as a replay, and refuses the id reused for another body', async () => {
    const [userId] = users as [number];
    const hold = holdIds[0] ?? 0;
    const pay: BatchRequest = {
      op: 'postHold',
      userId,
      requestId: 'twice',
      holdId: hold,
      to: [{ owner: { platform: 'spot_desk' }, amount: 10 }],
    };
    const receipts = await settle([pay, pay]);
    expect(receipts.map((r) => r.replayed)).toEqual([false, true]);
    expect(receipts[1]?.entryId).toBe(receipts[0]?.entryId);
    await oneByOne([pay, pay]);
    expect(await snapshot(one.handle)).toEqual(await snapshot(two.handle));

    const before = await snapshot(one.handle);
    const other = { ...pay, holdId: holdIds[5] ?? 0, requestId: 'again' };
    expect(await refusal(settle([other, { ...other, to: [{ owner: { platform: 'fees' }, amount: 10 }] }]))).toBe(
      'requestIdReused',
    );
    expect(await refusal(settle([{ ...pay, to: [{ owner: { platform: 'fees' }, amount: 10 }] }]))).toBe(
      'requestIdReused',
    );
    expect(await snapshot(one.handle)).toEqual(before);
  });

  it('lets exactly one of two batches racing for the same holds apply, and neither deadlocks', async () => {
    const requests = randomRequests(11).filter((r) => r.op !== 'post');
    const renamed = [...requests].reverse().map((r) => ({ ...r, requestId: `other-${r.requestId}` }));
    const results = await Promise.allSettled([settle(requests), settle(renamed)]);
    const applied = results.filter((r) => r.status === 'fulfilled');
    expect(applied).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected');
    expect(refused && refused.status === 'rejected' && refused.reason).toBeInstanceOf(LedgerError);
    expect((refused as PromiseRejectedResult).reason.key).toBe('holdNotOpen');
    expect((await snapshot(one.handle)).holds.every((h) => h.state !== 'open')).toBe(true);
  });

  it('refuses the whole batch for one invalid request, and leaves no trace', async () => {
    const [alice, bob] = users as [number, number];
    const desk = { platform: 'spot_desk' } as const;
    // Hold 0 is alice's (USDT), hold 1 is bob's (BTC).
    await settle([{ op: 'voidHold', userId: alice, requestId: 'void-0', holdId: holdIds[0] ?? 0 }]);
    const before = await snapshot(one.handle);
    const good: BatchRequest = {
      op: 'postHold',
      userId: bob,
      requestId: 'fill-1',
      holdId: holdIds[1] ?? 0,
      to: [{ owner: desk, amount: 5 }],
    };
    const cases: Array<[string, BatchRequest[]]> = [
      // already resolved before the batch
      [
        'holdNotOpen',
        [
          good,
          { op: 'postHold', userId: alice, requestId: 'x', holdId: holdIds[0] ?? 0, to: [{ owner: desk, amount: 1 }] },
        ],
      ],
      // resolved twice within the batch under two ids
      ['holdNotOpen', [good, { ...good, requestId: 'fill-1b' }]],
      ['holdNotFound', [good, { op: 'voidHold', userId: alice, requestId: 'y', holdId: holdIds[1] ?? 0 }]],
      [
        'amountTooLarge',
        [good, { ...good, requestId: 'z', holdId: holdIds[6] ?? 0, to: [{ owner: desk, amount: 10_000 }] }],
      ],
      // a debit covered only by a credit that comes after it: refused, as one by one
      [
        'insufficientBalance',
        [
          good,
          {
            op: 'post',
            userId: alice,
            requestId: 'spend',
            kind: 'penalty',
            legs: [
              { owner: { userId: alice, type: 'trust' }, currency: 'USDT', amount: -100 },
              { owner: { platform: 'penalties' }, currency: 'USDT', amount: 100 },
            ],
          },
          {
            op: 'post',
            userId: alice,
            requestId: 'earn',
            kind: 'trade',
            legs: [
              { owner: desk, currency: 'USDT', amount: -100 },
              { owner: { userId: alice, type: 'trust' }, currency: 'USDT', amount: 100 },
            ],
          },
        ],
      ],
    ];
    for (const [key, requests] of cases) {
      expect(await refusal(settle(requests))).toBe(key);
      expect(await snapshot(one.handle)).toEqual(before);
    }
    // The same order the other way round is fine.
    const lastCase = cases[cases.length - 1]?.[1] ?? [];
    await settle([lastCase[0] as BatchRequest, lastCase[2] as BatchRequest, lastCase[1] as BatchRequest]);
    expect((await batched.balances(alice)).find((b) => b.type === 'trust')?.balance).toBe(0);
  });
});
