import { describe, expect, it, vi } from 'vitest';
import { OPEN_LEVER_PHASES } from '../../protocol/lever';
import { SIMULATOR_FUNDS } from '../../protocol/options';
import { initialMargin, isolatedLiquidationPrice, type LeverTerms } from '../../protocol/rules/lever';
import { fromUnits, toUnits } from '../../protocol/rules/spot';
import { withLever } from '../../server/domains/lever';
import { setLeverSettings } from '../../server/domains/lever/terms';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { withPriceRecord } from '../../server/market';
import { MarketFeed } from '../../server/market/feed';
import { instrumentBySymbol } from '../../server/market/instruments';
import { sealBatch } from '../../server/market/price-chain';
import { writeTransaction } from '../../server/platform/db/transaction';
import { crashSite, enrolTraders, expectAcknowledgedKept, firstPrices, startClients, until } from './crash-kit';
import { HandMarket } from './hand-market';
import { DATABASES, openTestDatabase, startTestApp, uniqueEmail } from './harness';
import { checkLeverPositions, positions, readTerms } from './lever-position-checks';

/**
 * The real server (a child process on SQLite, the simulator market stepping every 100 ms) is killed with SIGKILL
 * while it liquidates a crowd of isolated lever positions. The maintenance margin rate is raised for the test to
 * just under 1/leverage, so a 100x position opens about 0.02% from its liquidation price (a few steps of the walk);
 * every position also carries a take-profit one to three times as far the other way, and one in five a stop-loss
 * halfway to the liquidation price, so every position leaves the book within seconds, about half of them
 * liquidated, often dozens at the same tick. After a restart on the same data dir the engine takes the open positions from the database again
 * and finishes the job. Afterwards: every acknowledged position is there and closed (or cancelled before opening),
 * each closed exactly once (one `lever-close:<id>` ledger entry, its holds resolved), at the first recorded tick
 * after its entry that reaches one of its prices (liquidation before stop-loss before take-profit at one tick), so
 * every liquidation names a tick at or past its liquidation price; the money of every close is what
 * protocol/rules/lever.ts gives, every contract account is its funding less what its positions lost, and the ledger
 * and price chain checks are clean.
 */

const USERS = 6;
const WORKERS = 8;
const POSITIONS = 200;
const STEP_MS = 100;
const SYMBOLS = ['BTC', 'ETH'];
const LEVERAGE = 100;
/** Just under 1/leverage: the liquidation price is about (0.01 − MMR) / (1 − MMR) = 0.0202% from the entry. */
const MMR = '0.0098';
const FUNDS = '100000';

describe('lever liquidations after a killed server (SQLite)', () => {
  const site = crashSite('lever', { stepMs: STEP_MS, symbols: SYMBOLS });

  it('closes every position exactly once, at the first recorded tick that reaches its prices, across a kill -9', async () => {
    let server = await site.start();
    const handle = site.openDatabase();
    const db = handle.db;
    const terms = await setLeverSettings(db, (current) => ({ ...current, mmr: MMR }), { operator: 'test' });
    expect(terms.ok).toBe(true);

    // Users through the API: half verified and funded on the real book, half on the simulator book alone.
    const { traders: users, funding } = await enrolTraders(server, handle, {
      count: USERS,
      name: 'lever-crash',
      idLetter: 'L',
      account: 'contract',
      funds: FUNDS,
      requestId: 'seed-lever',
      simulatorCall: 'lever/simulator',
      simulatorFunds: SIMULATOR_FUNDS,
    });

    // The prices each order's take-profit and stop-loss are placed around: the server's last price (its reference
    // for the checks of lever/submit), read just before.
    const prices = await firstPrices(server, SYMBOLS);
    const settings = await readTerms(db, SYMBOLS);

    // POSITIONS market orders from several clients at once (fewer if the kill comes first).
    const clients = startClients(
      server,
      WORKERS,
      (w, i, n) => {
        if (n >= POSITIONS) return undefined;
        const user = users[n % users.length];
        if (!user) return undefined;
        const symbol = SYMBOLS[n % SYMBOLS.length] ?? 'BTC';
        const side = (n >> 1) % 2 === 0 ? 'long' : 'short';
        const lots = 1 + (n % 5);
        const fields: Record<string, string> & { request_id: string } = {
          symbol,
          side,
          type: 'market',
          margin_mode: 'isolated',
          lots: String(lots),
          leverage: String(LEVERAGE),
          account: user.account,
          request_id: `w${w}-${i}`,
        };
        const reference = prices.last.get(symbol);
        const t = settings.get(symbol) as LeverTerms;
        const scale = t.priceScale;
        const ref = reference === undefined ? null : toUnits(reference, scale);
        if (ref !== null) {
          // The distance to the liquidation price at the reference, as lever/submit computes it.
          const margin = initialMargin(BigInt(lots), ref, LEVERAGE, t);
          const lp = isolatedLiquidationPrice({ side, lots: BigInt(lots), entry: ref, margin, terms: t }) ?? 0n;
          const d = ref > lp ? ref - lp : lp - ref;
          // A take-profit one to three times as far the other way: every position leaves the book within seconds.
          const far = BigInt(1 + (n % 3)) * d;
          fields.take_profit = fromUnits(side === 'long' ? ref + far : ref - far, scale);
          // Some with a stop-loss halfway to the liquidation price: a tick that jumps past both liquidates.
          if (n % 5 === 4) fields.stop_loss = fromUnits(side === 'long' ? ref - d / 2n : ref + d / 2n, scale);
        }
        return { path: 'lever/submit', fields, token: user.token };
      },
      // Fresh references for the next orders' prices; a failure here is the server gone, like a failed submit.
      (i) => (i % 4 === 0 ? prices.refresh() : undefined),
    );
    const count = async (where: (qb: ReturnType<typeof positions>) => ReturnType<typeof positions>) =>
      Number(
        (
          await where(positions(db))
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const liquidated = () => count((qb) => qb.where('close_reason', '=', 'liquidation'));
    const open = () => count((qb) => qb.where('phase', 'in', OPEN_LEVER_PHASES));
    // Kill while liquidations are being written: after a random number of them, with positions still open and
    // more reaching their prices every step.
    const killAfter = 15 + Math.floor(Math.random() * 45);
    await until(
      'liquidations before the kill',
      async () => ((await liquidated()) >= killAfter ? true : undefined),
      120_000,
    );
    await site.killHard(server);
    await clients.stop();
    const liquidatedAtKill = await liquidated();
    const openAtKill = await open();
    expect(clients.acked.size).toBeGreaterThan(0);

    // Restart on the same data dir: the engine takes the open positions from the database again.
    server = await site.start();
    try {
      await until('no open position', async () => ((await open()) === 0 ? true : undefined), 120_000);
    } catch (err) {
      const stuck = await positions(db)
        .select([
          'id',
          'phase',
          'side',
          'symbol',
          'entry_price',
          'liq_price',
          'tp_price',
          'sl_price',
          'updated_at',
          'accepted_at',
        ])
        .where('phase', 'in', OPEN_LEVER_PHASES)
        .execute();
      const lastTicks = await withPriceRecord(db)
        .selectFrom('price_ticks')
        .select(['symbol', 'seq', 'ts', 'price'])
        .orderBy('id', 'desc')
        .limit(4)
        .execute();
      console.log(JSON.stringify({ stuck, lastTicks, now: Date.now() }, null, 1));
      throw err;
    }
    // A clean stop writes the last buffered ticks, so the record holds every tick up to the last close.
    await site.stopCleanly(server);

    const rows = await positions(db).select(['id', 'request_id', 'phase']).execute();
    expectAcknowledgedKept(
      'position',
      clients,
      WORKERS,
      rows.map((r) => ({ ...r, end: r.phase })),
      ['closed', 'cancelled'],
    );

    const check = await checkLeverPositions(handle, funding);
    expect(check.problems).toEqual([]);
    // The scenario did what it is for: liquidations on both sides of the kill, several at one tick.
    expect(check.reasons.liquidation ?? 0).toBeGreaterThan(liquidatedAtKill);
    expect(check.crowd).toBeGreaterThan(1);
    console.log(
      `lever crash: ${clients.sent} sent, ${clients.acked.size} acknowledged, ${clients.refused} refused` +
        ` ${JSON.stringify([...clients.refusals])};` +
        ` killed after ${liquidatedAtKill} liquidations with ${openAtKill} open;` +
        ` after restart ${JSON.stringify(check.reasons)}, at most ${check.crowd} closed at one tick,` +
        ` slowest entry ${check.slowestEntry} ms after acceptance`,
    );
  }, 400_000);
});

/**
 * The narrow case behind "at the first recorded tick that reaches its prices" above, made certain: the process that
 * opened a position recorded a tick past its liquidation price and died before liquidating it. The restarted
 * engine's window starts later, so the first tick it sees past the liquidation price is not the one that counts;
 * the record's is (RULES "Lever": triggers are checked on every recorded tick).
 */
describe.each(DATABASES)('a position whose liquidation tick went by in a dead process on %s', (kind) => {
  it('is liquidated at the first recorded tick past its liquidation price, not at the first the new process sees', async () => {
    const database = await openTestDatabase(kind);
    const db = database.handle.db;
    const before = new HandMarket(['BTC']);
    const beforeFeed = new MarketFeed(before);
    const first = await startTestApp(database.handle, { market: { feed: beforeFeed, record: false } });
    let second: Awaited<ReturnType<typeof startTestApp>> | undefined;
    let afterFeed: MarketFeed | undefined;
    try {
      const session = await first.registerByEmail(uniqueEmail('lever-restart'));
      // A price to place against, then the order.
      first.clock.advance(1_000);
      before.trade('BTC', '60000.00', first.clock.now());
      const placed = await first.call(
        'lever/submit',
        {
          symbol: 'BTC',
          side: 'long',
          type: 'market',
          margin_mode: 'isolated',
          lots: '10',
          leverage: '10',
          account: 'simulator',
          request_id: 'across-restart',
        },
        { token: session.token },
      );
      expect(placed.body.type, placed.body.message).toBe('ok');
      const id = (placed.body.data as { id: number }).id;
      // The entry tick (the engine finds it in its window whenever it starts leading).
      first.clock.advance(1_000);
      before.trade('BTC', '60000.00', first.clock.now());
      const row = () =>
        withLever(db).selectFrom('lever_positions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      await vi.waitFor(async () => expect((await row()).phase).toBe('holding'), { timeout: 20_000, interval: 20 });
      const opened = await row();
      // (600 − 60) / (0.01 × 0.995) = 54,271.356… rounded down to the cent.
      expect(opened.liq_price).toBe('54271.35');
      await first.close();
      beforeFeed.close();
      // What the dead process had recorded after the open: a tick past the liquidation price, in a sealed flush (the
      // engine reads the record only up to its newest sealed tick: past it an earlier tick may still be missing).
      const recorded = { symbol: 'BTC', seq: 3, ts: opened.updated_at + 500, price: '54000.00' };
      await writeTransaction(database.handle, (trx) =>
        sealBatch(
          trx,
          [{ ...recorded, instrument_id: instrumentBySymbol('BTC')?.id ?? 0, batch_id: null }],
          recorded.ts,
        ),
      );

      // The restarted process: its ticks go on from sequence 4, later, further down.
      const after = new HandMarket(['BTC']);
      for (let k = 0; k < recorded.seq; k++) after.trade('BTC', '60000.00', 0);
      afterFeed = new MarketFeed(after);
      second = await startTestApp(database.handle, { market: { feed: afterFeed, record: false } });
      second.clock.advance(Math.max(0, recorded.ts + 1_000 - second.clock.now()));
      const app = second;
      const market = after;
      await vi.waitFor(
        async () => {
          app.clock.advance(1_000);
          market.trade('BTC', '53000.00', app.clock.now());
          const closed = await row();
          expect(closed.phase).toBe('closed');
          expect({ reason: closed.close_reason, seq: closed.exit_seq, price: closed.exit_price }).toEqual({
            reason: 'liquidation',
            seq: recorded.seq,
            price: recorded.price,
          });
        },
        { timeout: 20_000, interval: 100 },
      );
      expect(describeProblems(await checkLedger(db))).toEqual([]);
    } finally {
      await second?.close();
      afterFeed?.close();
      await database.close();
    }
  });
});
