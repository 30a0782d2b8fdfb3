import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RANGE_TICKS, RECENT_TICKS } from '../../protocol/price-record';
import { chainHash, GENESIS_HASH, ticksDigest } from '../../protocol/rules/price-record';
import { MIGRATIONS, migrateToLatest } from '../migrations';
import { type DatabaseHandle, openSqlite } from '../platform/db/connect';
import { runMigrations } from '../platform/db/migrator';
import { writeTransaction } from '../platform/db/transaction';
import { openPostgresSchema } from '../testing';
import { MarketFeed } from './feed';
import { formatUnits, INSTRUMENTS } from './instruments';
import { chainHead, lastRecordedSeqs, pinTick, recordedTicks, tickRecord, verifyPriceChain } from './price-chain';
import { PriceRecorder } from './recorder';
import { MarketSimulator } from './simulator';
import { withPriceRecord } from './tables';

/** SQLite always; PostgreSQL in a throwaway schema when TEST_DATABASE_URL is set (as server/migrations.test.ts). */
type Open = () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>;
const targets: Array<[string, Open]> = [
  [
    'sqlite',
    async () => {
      const handle = openSqlite(':memory:');
      return { handle, close: () => handle.db.destroy() };
    },
  ],
];
const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) targets.push(['postgres', () => openPostgresSchema(pgUrl)]);

const T0 = Date.UTC(2024, 5, 4, 12);
const PRICE_SCALE = new Map(INSTRUMENTS.map((i) => [i.symbol, i.priceScale]));

describe.each(targets)('price chain on %s', (_name, open) => {
  let closeDb: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await closeDb?.();
    closeDb = undefined;
  });

  /** A migrated database, a three-coin simulator on a hand-moved clock, its feed and the last tick per symbol. */
  async function setUp() {
    const { handle, close } = await open();
    closeDb = close;
    await migrateToLatest(handle);
    const clock = { now: T0 };
    const sim = new MarketSimulator({
      seed: 'chain',
      now: () => clock.now,
      backfillDays: 0,
      instruments: INSTRUMENTS.slice(0, 3),
    });
    const feed = new MarketFeed(sim, () => clock.now);
    const latest = new Map<string, { symbol: string; seq: number; ts: number; price: string }>();
    feed.onTick((t) =>
      latest.set(t.symbol, {
        symbol: t.symbol,
        seq: t.seq,
        ts: t.ts,
        price: formatUnits(t.price, PRICE_SCALE.get(t.symbol) ?? 0),
      }),
    );
    const advance = (ms: number) => {
      clock.now += ms;
      sim.advanceTo(clock.now);
    };
    return { handle, db: handle.db, clock, feed, latest, advance };
  }

  it('chains two flushes: batch 1 links to genesis, batch 2 to batch 1, digests from the stored ticks', async () => {
    const { db, handle, clock, feed, advance } = await setUp();
    const recorder = new PriceRecorder(handle, feed, { now: () => clock.now });
    expect(await chainHead(db)).toEqual({ batch_id: null, hash: null, to_ts: null });
    advance(1_000);
    await recorder.flush();
    advance(1_000);
    await recorder.flush();
    await recorder.flush(); // nothing buffered: no empty batch
    const batches = await withPriceRecord(db).selectFrom('price_batches').selectAll().orderBy('id').execute();
    expect(batches.map((b) => b.id)).toEqual([1, 2]);
    const [b1, b2] = batches as [(typeof batches)[0], (typeof batches)[0]];
    expect(b1.prev_hash).toBe(GENESIS_HASH);
    expect(b2.prev_hash).toBe(b1.hash);
    for (const b of batches) {
      const ticks = await withPriceRecord(db)
        .selectFrom('price_ticks')
        .select(['symbol', 'seq', 'ts', 'price'])
        .where('batch_id', '=', b.id)
        .execute();
      expect(ticks).toHaveLength(b.tick_count);
      expect(b.digest).toBe(ticksDigest(ticks));
      expect(b.hash).toBe(chainHash(b.prev_hash, b.digest));
      expect(b.from_ts).toBe(Math.min(...ticks.map((t) => t.ts)));
      expect(b.to_ts).toBe(Math.max(...ticks.map((t) => t.ts)));
    }
    // Every recorded tick is sealed, none twice.
    const unsealed = await withPriceRecord(db)
      .selectFrom('price_ticks')
      .select('id')
      .where('batch_id', 'is', null)
      .execute();
    expect(unsealed).toEqual([]);
    expect(await chainHead(db)).toEqual({ batch_id: 2, hash: b2.hash, to_ts: b2.to_ts });
    expect(await verifyPriceChain(db)).toEqual({ batches: 2, checked: 2, pruned: 0, difference: null });
    expect(await lastRecordedSeqs(db, ['BTC', 'NOPE'])).toEqual(
      new Map([
        [
          'BTC',
          Number(
            (
              await withPriceRecord(db)
                .selectFrom('price_ticks')
                .select((eb) => eb.fn.max('seq').as('s'))
                .where('symbol', '=', 'BTC')
                .executeTakeFirstOrThrow()
            ).s,
          ),
        ],
      ]),
    );
  });

  it("reads a symbol's recorded ticks: the newest, a range, and a long range thinned with both ends kept", async () => {
    const { db, handle, clock, feed, advance } = await setUp();
    const recorder = new PriceRecorder(handle, feed, { now: () => clock.now });
    // 1,500 one-second ticks a symbol, in steps the simulator catches up whole: more than one range returns unthinned.
    for (let k = 0; k < 3; k++) advance(500_000);
    await recorder.flush();
    const all = await withPriceRecord(db)
      .selectFrom('price_ticks')
      .select(['symbol', 'seq', 'ts', 'price'])
      .where('symbol', '=', 'BTC')
      .orderBy('seq')
      .execute();
    expect(all.length).toBeGreaterThan(MAX_RANGE_TICKS);
    const first = all[0];
    const last = all.at(-1);
    if (!first || !last) throw new Error('no BTC ticks recorded');

    expect(await recordedTicks(db, 'BTC')).toEqual({ symbol: 'BTC', ticks: all.slice(-RECENT_TICKS), step: 1 });
    expect(await recordedTicks(db, 'BTC', { from: first.seq, to: first.seq + 9 })).toEqual({
      symbol: 'BTC',
      ticks: all.slice(0, 10),
      step: 1,
    });

    const long = await recordedTicks(db, 'BTC', { from: first.seq, to: last.seq });
    const step = Math.ceil((last.seq - first.seq + 1) / MAX_RANGE_TICKS);
    expect(step).toBe(2);
    expect(long.step).toBe(step);
    expect(long.ticks).toEqual(all.filter((t) => (t.seq - first.seq) % step === 0 || t.seq === last.seq));
    expect(long.ticks[0]).toEqual(first);
    expect(long.ticks.at(-1)).toEqual(last);
    expect(long.ticks.length).toBeLessThanOrEqual(MAX_RANGE_TICKS + 1);

    expect(await recordedTicks(db, 'NOPE')).toEqual({ symbol: 'NOPE', ticks: [], step: 1 });
  });

  it('a pinned tick joins the flush that carries it, and one whose flush was lost is sealed after 5 s', async () => {
    const { db, handle, clock, feed, latest, advance } = await setUp();
    const recorder = new PriceRecorder(handle, feed, { now: () => clock.now });
    advance(1_000);
    // An order uses BTC's latest tick before the recorder flushed it: pinned in the order's transaction.
    const used = latest.get('BTC');
    if (!used) throw new Error('no BTC tick');
    await writeTransaction(handle, (trx) => pinTick(trx, used, 'spot:1'));
    await writeTransaction(handle, (trx) => pinTick(trx, used, 'spot:1')); // idempotent
    await recorder.flush();
    const first = await tickRecord(db, 'BTC', used.seq);
    expect(first?.batch.id).toBe(1);
    expect(first?.ticks).toContainEqual(used);

    // A leader dies after an order pinned a tick and before its flush: the next leader never had it buffered.
    advance(1_000);
    const orphan = latest.get('ETH');
    if (!orphan) throw new Error('no ETH tick');
    recorder.drop();
    await writeTransaction(handle, (trx) => pinTick(trx, orphan, 'spot:2'));
    advance(1_000);
    await recorder.flush();
    expect(await tickRecord(db, 'ETH', orphan.seq)).toBeNull(); // younger than 5 s: its own flush may still come
    advance(5_000);
    await recorder.flush();
    const sealed = await tickRecord(db, 'ETH', orphan.seq);
    expect(sealed?.batch.id).toBe(3);
    expect(sealed?.ticks).toContainEqual(orphan);
    expect(sealed?.batch.from_ts).toBe(orphan.ts);
    expect((await verifyPriceChain(db)).difference).toBeNull();

    // The record keeps what was first recorded under a number: pinning another price for it fails.
    await expect(writeTransaction(handle, (trx) => pinTick(trx, { ...used, price: '1.00' }, 'spot:3'))).rejects.toThrow(
      /recorded as/,
    );
  });

  it('retention removes old batches whole but keeps every batch holding a pinned tick', async () => {
    const { db, handle, clock, feed, latest, advance } = await setUp();
    const recorder = new PriceRecorder(handle, feed, { now: () => clock.now, retentionMs: 60_000 });
    advance(1_000);
    await recorder.flush(); // batch 1 (prunes nothing: all young); the next prune is a minute on
    advance(1_000);
    const used = latest.get('BTC');
    if (!used) throw new Error('no BTC tick');
    await writeTransaction(handle, (trx) => pinTick(trx, used, 'spot:7'));
    await recorder.flush(); // batch 2, pinned
    for (let k = 0; k < 3; k++) {
      advance(1_000);
      await recorder.flush(); // batches 3-5
    }
    const counts = async () =>
      (
        await withPriceRecord(db)
          .selectFrom('price_ticks')
          .select(['batch_id', (eb) => eb.fn.countAll<number>().as('n')])
          .groupBy('batch_id')
          .orderBy('batch_id')
          .execute()
      ).map((r) => [Number(r.batch_id), Number(r.n)]);
    const before = await counts();
    expect(before.map(([id]) => id)).toEqual([1, 2, 3, 4, 5]);
    advance(120_000);
    await recorder.flush(); // batch 6, and the prune
    const after = await counts();
    expect(after.map(([id]) => id)).toEqual([2, 6]);
    expect(after[0]).toEqual(before[1]);
    expect(await withPriceRecord(db).selectFrom('price_batches').select('id').execute()).toHaveLength(6);
    expect(await verifyPriceChain(db)).toEqual({ batches: 6, checked: 2, pruned: 4, difference: null });
    expect((await tickRecord(db, 'BTC', used.seq))?.batch.id).toBe(2);
  });

  it('a failover continues the chain from the last stored batch', async () => {
    const { db, handle, clock, feed, advance } = await setUp();
    const leader = new PriceRecorder(handle, feed, { now: () => clock.now });
    const follower = new PriceRecorder(handle, feed, { now: () => clock.now });
    const runRound = async (writer: PriceRecorder, other: PriceRecorder) => {
      advance(1_000);
      await writer.job().run({ leading: true } as never);
      await other.job().run({ leading: false } as never);
    };
    await runRound(leader, follower);
    await runRound(leader, follower);
    // The leader dies with ticks buffered; the follower takes the lease over.
    advance(1_000);
    leader.drop();
    await runRound(follower, leader);
    await runRound(follower, leader);
    const batches = await withPriceRecord(db)
      .selectFrom('price_batches')
      .select(['id', 'prev_hash', 'hash'])
      .orderBy('id')
      .execute();
    expect(batches.map((b) => b.id)).toEqual([1, 2, 3, 4]);
    for (let k = 1; k < batches.length; k++) expect(batches[k]?.prev_hash).toBe(batches[k - 1]?.hash);
    expect(await verifyPriceChain(db)).toEqual({ batches: 4, checked: 4, pruned: 0, difference: null });
    // No tick recorded twice although both processes saw every tick.
    const dup = await sql<{ n: number }>`select count(*) as n from (
      select symbol, seq from price_ticks group by symbol, seq having count(*) > 1) as d`.execute(db);
    expect(Number(dup.rows[0]?.n)).toBe(0);
  });

  it('writes ticks and their batch in one transaction: a failed flush leaves nothing and retries its ticks', async () => {
    const { db, handle, clock, feed, advance } = await setUp();
    const errors: unknown[] = [];
    const recorder = new PriceRecorder(handle, feed, { now: () => clock.now, onError: (e) => errors.push(e) });
    advance(1_000);
    const buffered = recorder.pending;
    // The batch insert fails (as a second writer taking the same batch number would make it fail).
    await sql`alter table price_batches rename to price_batches_away`.execute(db);
    await recorder.flush();
    await sql`alter table price_batches_away rename to price_batches`.execute(db);
    expect(errors).toHaveLength(1);
    expect(await withPriceRecord(db).selectFrom('price_ticks').select('id').execute()).toEqual([]);
    expect(recorder.pending).toBe(buffered);
    advance(1_000);
    await recorder.flush();
    const batch = await withPriceRecord(db).selectFrom('price_batches').selectAll().executeTakeFirstOrThrow();
    expect(batch).toMatchObject({ id: 1, prev_hash: GENESIS_HASH });
    expect(batch.tick_count).toBeGreaterThan(buffered);
    expect(await verifyPriceChain(db)).toEqual({ batches: 1, checked: 1, pruned: 0, difference: null });
  });

  it('verify names the first difference: a changed price, a removed tick, a broken link', async () => {
    const { db, handle, clock, feed, advance } = await setUp();
    const recorder = new PriceRecorder(handle, feed, { now: () => clock.now });
    for (let k = 0; k < 3; k++) {
      advance(1_000);
      await recorder.flush();
    }
    const victim = await withPriceRecord(db)
      .selectFrom('price_ticks')
      .select(['id', 'price', 'batch_id'])
      .where('batch_id', '=', 2)
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    await withPriceRecord(db).updateTable('price_ticks').set({ price: '1.00' }).where('id', '=', victim.id).execute();
    expect((await verifyPriceChain(db)).difference).toBe('batch 2: its ticks do not match its digest');
    await withPriceRecord(db)
      .updateTable('price_ticks')
      .set({ price: victim.price })
      .where('id', '=', victim.id)
      .execute();
    expect((await verifyPriceChain(db)).difference).toBeNull();

    await withPriceRecord(db).deleteFrom('price_ticks').where('id', '=', victim.id).execute();
    expect((await verifyPriceChain(db)).difference).toMatch(/^batch 2: holds \d+ of its \d+ ticks$/);

    await withPriceRecord(db).updateTable('price_batches').set({ digest: GENESIS_HASH }).where('id', '=', 3).execute();
    expect((await verifyPriceChain(db)).difference).toMatch(/^batch 2/); // the first difference wins
    await withPriceRecord(db).deleteFrom('price_ticks').where('batch_id', '=', 2).execute(); // now it looks pruned
    expect((await verifyPriceChain(db)).difference).toBe('batch 3: hash does not match its digest');
  });
});

describe('migration 0009 on a database recorded before the chain', () => {
  it('deletes duplicate (symbol, seq) rows keeping the first, then enforces one row per tick', async () => {
    const handle = openSqlite(':memory:');
    try {
      await runMigrations(
        handle,
        MIGRATIONS.filter((m) => m.name < '0009'),
      );
      const row = (seq: number, price: string) => ({ instrument_id: 1, symbol: 'BTC', ts: seq, price, seq });
      await sql`insert into price_ticks (instrument_id, symbol, ts, price, seq) values
        (1, 'BTC', 1, '1.00', 1), (1, 'BTC', 2, '2.00', 2), (1, 'BTC', 3, '9.00', 1), (1, 'ETH', 1, '5.00', 1)`.execute(
        handle.db,
      );
      await migrateToLatest(handle);
      const rows = await withPriceRecord(handle.db)
        .selectFrom('price_ticks')
        .select(['id', 'symbol', 'seq', 'price', 'batch_id'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: 1, symbol: 'BTC', seq: 1, price: '1.00', batch_id: null },
        { id: 2, symbol: 'BTC', seq: 2, price: '2.00', batch_id: null },
        { id: 4, symbol: 'ETH', seq: 1, price: '5.00', batch_id: null },
      ]);
      await expect(
        withPriceRecord(handle.db)
          .insertInto('price_ticks')
          .values({ ...row(2, '3.00'), batch_id: null })
          .execute(),
      ).rejects.toThrow();
    } finally {
      await handle.db.destroy();
    }
  });
});
