import { describe, expect, it, vi } from 'vitest';
import { withLever } from '../../server/domains/lever';
import { LeverEngine } from '../../server/domains/lever/engine';
import { Ledger } from '../../server/ledger';
import { withPriceRecord } from '../../server/market';
import { MarketFeed } from '../../server/market/feed';
import { pinTick } from '../../server/market/price-chain';
import { PriceRecorder } from '../../server/market/recorder';
import { writeTransaction } from '../../server/platform/db/transaction';
import type { Job } from '../../server/platform/jobs/runner';
import { HandMarket } from './hand-market';
import { DATABASES, openTestDatabase, startTestApp, uniqueEmail } from './harness';

/**
 * The failover bench's "liquidated at tick 463 where the record reached the liquidation price at 462", made certain.
 * Process A leads the lever engine and writes the price record; it dies with tick 462 published (every process saw
 * it) but not yet flushed. Before the successor writes the record, an order pins tick 463, so the record holds 461
 * (sealed), no 462, and 463 (pinned, unsealed). Process B then takes the lever lease over: its window (15 s) does not
 * reach back to the position's open, so it catches up from the record. Reading the record as it stood, it met 463
 * before its window's 462 and liquidated there, although 462 already reached the liquidation price and the record
 * gives 462 once B's recorder writes what it kept. RULES "Lever": triggers are checked on every recorded tick.
 *
 * One market in memory that both processes see (the bus), A as the real app, B as its own lever engine and recorder
 * whose job rounds the test runs with the lease it gives them; the clock is the app's test clock.
 */
describe.each(DATABASES)('failover: lever engine catching up from the record of a dead writer (%s)', (kind) => {
  it('liquidates at the first recorded tick at the liquidation price, not at a pinned later one', async () => {
    const database = await openTestDatabase(kind);
    const db = database.handle.db;
    const market = new HandMarket(['BTC']);
    const feedA = new MarketFeed(market);
    const a = await startTestApp(database.handle, { market: { feed: feedA, record: false } });
    const now = a.clock.now;
    // A's record writer (the app records nothing itself here, so its flushes happen exactly where the test says).
    const recorderA = new PriceRecorder(database.handle, feedA, { now });
    // B: sees every tick from the start, follows the record's and the lever engine's leases.
    const feedB = new MarketFeed(market);
    feedB.start();
    const recorderB = new PriceRecorder(database.handle, feedB, { now });
    const engineB = new LeverEngine({
      database: database.handle,
      ledger: new Ledger(database.handle, now),
      feed: feedB,
      now,
    });
    const round = (job: Job, leading: boolean) => Promise.resolve(job.run({ leading, stillLeading: () => leading }));
    const recordA = recorderA.job();
    const recordB = recorderB.job();
    const leverB = engineB.job();
    let aClosed = false;
    try {
      const session = await a.registerByEmail(uniqueEmail('failover-lever'));
      a.clock.advance(1_000);
      market.trade('BTC', '60000.00', now());
      const placed = await a.call(
        'lever/submit',
        {
          symbol: 'BTC',
          side: 'long',
          type: 'market',
          margin_mode: 'isolated',
          lots: '10',
          leverage: '10',
          account: 'simulator',
          request_id: 'failover-lever',
        },
        { token: session.token },
      );
      expect(placed.body.type, placed.body.message).toBe('ok');
      const id = (placed.body.data as { id: number }).id;
      const row = () =>
        withLever(db).selectFrom('lever_positions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      a.clock.advance(1_000);
      market.trade('BTC', '60000.00', now());
      await vi.waitFor(async () => expect((await row()).phase).toBe('holding'), { timeout: 20_000, interval: 20 });
      expect((await row()).liq_price).toBe('54271.35');

      // 20 s of ticks above the liquidation price, A writing the record every second: B's window (15 s) no longer
      // reaches back to the open.
      for (let k = 0; k < 20; k++) {
        a.clock.advance(1_000);
        market.trade('BTC', '60000.00', now());
        await round(recordA, true);
        await round(recordB, false);
        await round(leverB, false);
      }
      // A dies: its engines act no more; tick 462 reaches the liquidation price, is published (B's engine and
      // recorder see it) and sits in A's recorder buffer, never flushed.
      await a.close();
      aClosed = true;
      a.clock.advance(1_000);
      const t462 = market.trade('BTC', '54200.00', now());
      // Tick 463, also past the liquidation price, pinned at once by an order another engine filled on it.
      a.clock.advance(1_000);
      const t463 = market.trade('BTC', '54100.00', now());
      await writeTransaction(database.handle, (trx) => pinTick(trx, { symbol: 'BTC', ...t463 }, 'spot:other'));
      expect(
        (await withPriceRecord(db).selectFrom('price_ticks').select('seq').where('seq', '=', t462.seq).execute())
          .length,
        'the record lacks 462 until the successor writes it',
      ).toBe(0);

      // B takes the lever engine's lease before it writes the record.
      a.clock.advance(5_000);
      await round(leverB, true);
      await engineB.idle();
      // Then the record's lease: its first batch writes what it kept, 462 among it.
      await round(recordB, true);
      // A round or two more of the engine (a row put off until the record was complete acts now).
      await round(leverB, true);
      await engineB.idle();

      const closed = await row();
      expect({
        phase: closed.phase,
        reason: closed.close_reason,
        seq: closed.exit_seq,
        price: closed.exit_price,
      }).toEqual({ phase: 'closed', reason: 'liquidation', seq: t462.seq, price: t462.price });
      // And the record agrees: its first tick after the open at or below the liquidation price is that one.
      const first = await withPriceRecord(db)
        .selectFrom('price_ticks')
        .select(['seq', 'price', 'batch_id'])
        .where('symbol', '=', 'BTC')
        .where('ts', '>', closed.terms_since)
        .orderBy('ts')
        .orderBy('seq')
        .execute();
      const reached = first.find((t) => Number(t.price) <= 54_271.35);
      expect(reached?.seq).toBe(t462.seq);
      expect(reached?.batch_id).not.toBeNull();
    } finally {
      engineB.close();
      await recorderB.close();
      // Dead: writes nothing more.
      recorderA.drop();
      await recorderA.close();
      feedB.close();
      if (!aClosed) await a.close();
      feedA.close();
      await database.close();
    }
  });
});
