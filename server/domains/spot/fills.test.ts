import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withLedger } from '../../ledger';
import { checkLedger, describeProblems } from '../../ledger/consistency';
import { Ledger } from '../../ledger/ledger';
import { withPriceRecord } from '../../market';
import { migrateToLatest } from '../../migrations';
import type { DatabaseHandle } from '../../platform/db/connect';
import { writeTransaction } from '../../platform/db/transaction';
import { insertUser, openMemoryDatabase, openPostgresSchema } from '../../testing';
import type { SpotOrderRow } from './orders';
import { fillMany, fillOrder } from './settle';
import { withSpot } from './tables';
import { spotInstrument } from './terms';

/**
 * The ledger's first batch user: spot fills at one tick settled together (`fillMany`) leave exactly the rows of the
 * same orders filled one by one (`fillOrder`): orders, entries, postings, balances, holds, pins and events. SQLite
 * always; PostgreSQL when TEST_DATABASE_URL is set.
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

const AT = 1_700_000_000_000;
const BTC = spotInstrument('BTC');
const TICK = { symbol: 'BTC', seq: 7, ts: AT - 500, price: '64000.00', units: 6_400_000n };

/**
 * Everything the fills wrote, by keys rather than ids (account ids depend on the order of creation), and in key
 * order: within one transaction the order of different orders' rows means nothing (a batch writes its price-band
 * cancels after its fills), while each entry's postings keep their own order.
 */
const sorted = <T>(list: T[]) => list.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));

async function snapshot(handle: DatabaseHandle) {
  const db = handle.db;
  const accounts = await withLedger(db).selectFrom('ledger_accounts').selectAll().execute();
  const keyOf = new Map(accounts.map((a) => [a.id, `${a.user_id ?? 'platform'}/${a.book}/${a.type}/${a.currency}`]));
  const entries = await withLedger(db).selectFrom('ledger_entries').selectAll().orderBy('id').execute();
  const entryKey = new Map(entries.map((e) => [e.id, `${e.user_id}:${e.request_id}`]));
  return {
    accounts: accounts
      .map((a) => ({ key: keyOf.get(a.id), balance: a.balance, held: a.held }))
      .filter((a) => a.balance !== 0 || a.held !== 0)
      .sort((x, y) => String(x.key).localeCompare(String(y.key))),
    entries: sorted(entries.map((e) => [entryKey.get(e.id), e.kind, e.request_digest, e.created_at])),
    postings: sorted(
      (await withLedger(db).selectFrom('ledger_postings').selectAll().orderBy('id').execute()).map((p, i, all) => [
        entryKey.get(p.entry_id),
        all.slice(0, i).filter((q) => q.entry_id === p.entry_id).length,
        keyOf.get(p.account_id),
        p.amount,
      ]),
    ),
    holds: (await withLedger(db).selectFrom('ledger_holds').selectAll().orderBy('id').execute()).map((h) => [
      h.id,
      h.state,
      h.resolved_entry_id === null ? null : entryKey.get(h.resolved_entry_id),
    ]),
    orders: await withSpot(db).selectFrom('spot_orders').selectAll().orderBy('id').execute(),
    pins: await withPriceRecord(db).selectFrom('price_pins').selectAll().orderBy('owner').execute(),
    ticks: await withPriceRecord(db).selectFrom('price_ticks').select(['symbol', 'seq', 'ts', 'price']).execute(),
    events: sorted(
      (await db.selectFrom('user_events').selectAll().orderBy('id').execute()).map((e) => [
        e.user_id,
        e.kind,
        e.payload,
        e.created_at,
      ]),
    ),
  };
}

describe.each(targets)('spot fills settled together on %s', (_name, open) => {
  let one: Opened;
  let two: Opened;
  let rowsOne: SpotOrderRow[];
  let rowsTwo: SpotOrderRow[];

  /** The same users, funds and open orders (with their holds) on both databases. */
  async function seed(handle: DatabaseHandle): Promise<SpotOrderRow[]> {
    const ledger = new Ledger(handle, () => AT);
    const users = [await insertUser(handle), await insertUser(handle), await insertUser(handle)];
    for (const userId of users) {
      for (const [currency, amount] of [
        ['USDT', 100_000_000_000],
        ['BTC', 1_000_000_000],
      ] as const) {
        await ledger.credit({
          userId,
          requestId: `fund-${currency}`,
          kind: 'deposit',
          currency,
          amount,
          from: 'deposits_clearing',
          to: 'coin',
        });
      }
    }
    const rows: SpotOrderRow[] = [];
    for (let i = 0; i < 30; i++) {
      const userId = users[i % users.length] ?? 0;
      const side = i % 3 === 0 ? 'sell' : 'buy';
      const mode = side === 'buy' && i % 4 === 1 ? 'amount' : 'quantity';
      const qty = mode === 'quantity' ? `0.${String(1 + i * 37).padStart(5, '0')}` : null;
      const amount = mode === 'amount' ? `${50 + i * 3}.25` : null;
      // Buys hold the cost with room to spare (the rest is released); one holds too little and is cancelled instead.
      const held =
        side === 'sell' ? (1 + i * 37) * 1_000 : i === 2 ? 1 : mode === 'amount' ? (50 + i * 3) * 1e6 + 250_000 : 2e9;
      const receipt = await ledger.placeHold({
        userId,
        requestId: `hold-${i}`,
        kind: 'order',
        currency: side === 'sell' ? 'BTC' : 'USDT',
        type: 'coin',
        amount: held,
      });
      const row = await withSpot(handle.db)
        .insertInto('spot_orders')
        .values({
          user_id: userId,
          symbol: 'BTC',
          side,
          type: i % 5 === 0 ? 'market' : 'limit',
          mode,
          qty,
          amount,
          price: i % 5 === 0 ? null : '65000.00',
          fee_rate: i % 2 === 0 ? '0.001' : '0.0025',
          price_band: '0.02',
          hold_id: receipt.holdId ?? 0,
          held,
          state: i % 5 === 0 ? 'waiting' : 'pending',
          cancel_reason: null,
          request_id: `order-${i}`,
          request_digest: 'x',
          accepted_at: AT - 1_000,
          fill_seq: null,
          fill_ts: null,
          fill_price: null,
          fill_qty: null,
          fill_value: null,
          fill_fee: null,
          fill_total: null,
          filled_at: null,
          created_at: AT - 1_000,
          updated_at: AT - 1_000,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      rows.push(row);
    }
    // One order was cancelled by its owner meanwhile: the fill finds it closed.
    await withSpot(handle.db)
      .updateTable('spot_orders')
      .set({ state: 'cancelled' })
      .where('id', '=', rows[4]?.id ?? 0)
      .execute();
    return rows;
  }

  beforeEach(async () => {
    one = await open();
    two = await open();
    rowsOne = await seed(one.handle);
    rowsTwo = await seed(two.handle);
  });
  afterEach(async () => {
    for (const opened of [one, two]) {
      expect(describeProblems(await checkLedger(opened.handle.db))).toEqual([]);
      await opened.close();
    }
  });

  it('leaves the same rows as the orders filled one by one, and does nothing when run again', async () => {
    if (!BTC) throw new Error('no BTC');
    const ledgerOne = new Ledger(one.handle, () => AT);
    const ledgerTwo = new Ledger(two.handle, () => AT);
    const outcomes = await writeTransaction(one.handle, (trx) => fillMany(trx, ledgerOne, rowsOne, BTC, TICK, AT));
    const expected = new Map<number, string>();
    for (const row of rowsTwo) {
      expected.set(row.id, await writeTransaction(two.handle, (trx) => fillOrder(trx, ledgerTwo, row, BTC, TICK, AT)));
    }
    expect(outcomes).toEqual(expected);
    expect([...outcomes.values()].filter((o) => o === 'filled').length).toBe(28);
    expect(outcomes.get(rowsOne[2]?.id ?? 0)).toBe('cancelled');
    expect(outcomes.get(rowsOne[4]?.id ?? 0)).toBe('closed');
    const after = await snapshot(one.handle);
    expect(after).toEqual(await snapshot(two.handle));

    // A second run (a retry after a crash, a second process) finds every order closed.
    const again = await writeTransaction(one.handle, (trx) => fillMany(trx, ledgerOne, rowsOne, BTC, TICK, AT));
    expect([...again.values()].every((o) => o === 'closed' || o === 'cancelled')).toBe(true);
    expect(await snapshot(one.handle)).toEqual(after);
  });

  it('replays into the single path: an order half-settled by a batch elsewhere is filled once', async () => {
    if (!BTC) throw new Error('no BTC');
    const ledgerOne = new Ledger(one.handle, () => AT);
    const some = rowsOne.slice(0, 10);
    await writeTransaction(one.handle, (trx) => fillMany(trx, ledgerOne, some, BTC, TICK, AT));
    // The whole list again, one by one (the engine's fallback): the first ten are closed, the rest fill.
    for (const row of rowsOne)
      await writeTransaction(one.handle, (trx) => fillOrder(trx, ledgerOne, row, BTC, TICK, AT));
    const ledgerTwo = new Ledger(two.handle, () => AT);
    await writeTransaction(two.handle, (trx) => fillMany(trx, ledgerTwo, rowsTwo, BTC, TICK, AT));
    expect(await snapshot(one.handle)).toEqual(await snapshot(two.handle));
  });
});
