import { describe, expect, it, vi } from 'vitest';
import { ENTRY_TICK_WAIT_MS } from '../../protocol/spot';
import { withSpot } from '../../server/domains/spot';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { withPriceRecord } from '../../server/market';
import { MarketFeed } from '../../server/market/feed';
import { INSTRUMENTS, instrumentBySymbol } from '../../server/market/instruments';
import { MarketSimulator } from '../../server/market/simulator';
import type { DatabaseHandle } from '../../server/platform/db/connect';
import {
  crashSite,
  depositDirectly,
  expectAcknowledgedKept,
  firstPrices,
  registerTrader,
  startClients,
  until,
} from './crash-kit';
import { DATABASES, openTestDatabase, startTestApp, uniqueEmail } from './harness';
import { checkSpotOrders, type Funding, priceNear, unitsOf } from './spot-checks';

/**
 * The real server (a child process on SQLite, the simulator market stepping every 100 ms) is killed with SIGKILL
 * while it fills a stream of orders. After a restart on the same data dir: every acknowledged order is there,
 * filled exactly once or still resting, nothing is half-applied (each order's state matches its ledger entries and
 * every balance is its funding plus its fills), each fill used the first recorded tick after acceptance (market
 * orders) or a recorded tick at or past its limit, and the ledger and the price chain checks are clean.
 */

const USERS = 6;
const WORKERS = 12;
const STEP_MS = 100;
const SYMBOLS = ['BTC', 'ETH'];
const FUNDS: Record<string, string> = { USDT: '1000000', BTC: '5', ETH: '100' };
/** Small values (about 10 to 40 USDT): thousands of orders fit every balance. */
const QTY: Record<string, string> = { BTC: '0.0003', ETH: '0.006' };

describe('spot orders after a killed server (SQLite)', () => {
  const site = crashSite('spot', { stepMs: STEP_MS, symbols: SYMBOLS });

  it('keeps every acknowledged order filled once or resting, and the ledger and price chain clean', async () => {
    let server = await site.start();
    const handle = site.openDatabase();
    const db = handle.db;

    // Users through the API (like the integration harness), funded by a direct ledger credit on the same file.
    const users: { id: number; token: string }[] = [];
    const funding: Funding[] = [];
    for (let u = 0; u < USERS; u++) {
      const session = await registerTrader(server, handle, `crash${u}@example.com`);
      users.push({ id: session.user.id, token: session.token });
      const amounts: Record<string, number> = {};
      for (const [currency, amount] of Object.entries(FUNDS)) {
        amounts[currency] = unitsOf(currency, amount);
        await depositDirectly(handle, {
          userId: session.user.id,
          requestId: `seed-${currency}`,
          currency,
          units: amounts[currency] ?? 0,
          to: 'coin',
        });
      }
      funding.push({ userId: session.user.id, amounts });
    }

    // A stream of orders from several clients at once: market orders (filled at their entry tick), limit orders
    // near the price (resting, then filled as the price moves, or crossing at once) and far from it (resting).
    const prices = await firstPrices(server, SYMBOLS);
    const clients = startClients(
      server,
      WORKERS,
      (w, i) => {
        const user = users[(w + i) % users.length];
        const symbol = SYMBOLS[i % SYMBOLS.length] ?? 'BTC';
        const price = prices.last.get(symbol) ?? '1';
        const side = (w + i) % 2 === 0 ? 'buy' : 'sell';
        const kind = i % 4;
        const fields: Record<string, string> & { request_id: string } = {
          symbol,
          side,
          qty: QTY[symbol] ?? '1',
          request_id: `w${w}-${i}`,
        };
        if (kind === 0 || kind === 1) fields.type = 'market';
        else {
          fields.type = 'limit';
          // Near: 0.02 % past the price on the resting side (a few steps of the walk); far: 20 %.
          const away = kind === 2 ? 2 : 2_000;
          fields.price = priceNear(symbol, price, side === 'buy' ? -away : away);
        }
        return { path: 'coin/trade', fields, token: user?.token };
      },
      // A failed refresh is no reason to stop sending: the next one may work.
      (i) => (i % 20 === 0 ? prices.refresh().catch(() => undefined) : undefined),
    );
    const countCompleted = async () =>
      Number(
        (
          await withSpot(db)
            .selectFrom('spot_orders')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('state', '=', 'completed')
            .executeTakeFirstOrThrow()
        ).n,
      );
    // Kill while fills are being written: after a random number of them, with orders still arriving.
    const killAfter = 150 + Math.floor(Math.random() * 250);
    await until(
      'fills before the kill',
      async () => ((await countCompleted()) >= killAfter ? true : undefined),
      90_000,
    );
    await site.killHard(server);
    await clients.stop();
    const completedAtKill = await countCompleted();
    expect(clients.acked.size).toBeGreaterThan(0);

    // Restart on the same data dir: the engine takes its open orders from the database again.
    server = await site.start();
    await until('no order waiting for its entry tick', async () => {
      const waiting = await withSpot(db)
        .selectFrom('spot_orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('state', '=', 'waiting')
        .executeTakeFirstOrThrow();
      return Number(waiting.n) === 0 ? true : undefined;
    });
    // A clean stop writes the last buffered ticks, so the record is complete up to the last fill.
    await site.stopCleanly(server);

    const orders = await withSpot(db)
      .selectFrom('spot_orders')
      .select(['id', 'request_id', 'state', 'cancel_reason'])
      .execute();
    expectAcknowledgedKept(
      'order',
      clients,
      WORKERS,
      orders.map((o) => ({ ...o, end: o.state, detail: `${o.state} ${o.cancel_reason}` })),
      // A market order accepted just before the kill whose entry tick was still in the dead process's buffer has no
      // recorded tick; a restart slower than the 10 s window (a busy machine) rightly cancels it: checked below.
      ['completed', 'pending', 'cancelled'],
    );

    const check = await checkSpotOrders(handle, funding);
    expect(check.problems).toEqual([]);
    expect(await entryTickProblems(handle)).toEqual([]);
    expect(await noTickProblems(handle)).toEqual([]);
    console.log(
      `spot crash: ${clients.sent} sent, ${clients.acked.size} acknowledged, ${clients.refused} refused;` +
        ` killed after ${completedAtKill} fills; after restart ${JSON.stringify(check.states)}`,
    );
  }, 240_000);
});

/**
 * RULES "No tick, no trade": an order cancelled here (nobody cancels by hand) must be `no_tick`, and the record must
 * hold no tick of its instrument within 10 s after its acceptance.
 */
async function noTickProblems(handle: DatabaseHandle): Promise<string[]> {
  const problems: string[] = [];
  const cancelled = await withSpot(handle.db)
    .selectFrom('spot_orders')
    .select(['id', 'symbol', 'accepted_at', 'cancel_reason'])
    .where('state', '=', 'cancelled')
    .execute();
  for (const o of cancelled) {
    if (o.cancel_reason !== 'no_tick') problems.push(`order ${o.id}: cancelled for ${o.cancel_reason}`);
    const inWindow = await withPriceRecord(handle.db)
      .selectFrom('price_ticks')
      .select('seq')
      .where('symbol', '=', o.symbol)
      .where('ts', '>', o.accepted_at)
      .where('ts', '<=', o.accepted_at + ENTRY_TICK_WAIT_MS)
      .limit(1)
      .executeTakeFirst();
    if (inWindow) problems.push(`order ${o.id}: cancelled no_tick, but tick ${inWindow.seq} came within the window`);
  }
  return problems;
}

/**
 * RULES "Which tick counts": a market order fills at the first recorded tick of its instrument after its acceptance;
 * a limit order at a tick at or after that one.
 */
async function entryTickProblems(handle: DatabaseHandle): Promise<string[]> {
  const problems: string[] = [];
  const filled = await withSpot(handle.db)
    .selectFrom('spot_orders')
    .select(['id', 'symbol', 'type', 'accepted_at', 'fill_seq', 'fill_ts'])
    .where('state', '=', 'completed')
    .execute();
  for (const o of filled) {
    const entry = await withPriceRecord(handle.db)
      .selectFrom('price_ticks')
      .select(['seq', 'ts'])
      .where('symbol', '=', o.symbol)
      .where('ts', '>', o.accepted_at)
      .orderBy('ts')
      .orderBy('seq')
      .limit(1)
      .executeTakeFirst();
    if (!entry) problems.push(`order ${o.id}: no recorded tick after its acceptance`);
    else if (o.type === 'market' ? o.fill_seq !== entry.seq : (o.fill_ts ?? 0) < entry.ts) {
      problems.push(`order ${o.id} (${o.type}): filled at tick ${o.fill_seq}, its entry tick is ${entry.seq}`);
    }
  }
  return problems;
}

/**
 * The narrow case behind "each fill used the first recorded tick after acceptance" above, made certain: the process
 * that accepted a market order recorded a tick after its acceptance and died before filling it. The restarted
 * engine's window starts later, so the first tick it sees is not the order's entry tick; the record's is.
 */
describe.each(DATABASES)('an order waiting across a restart on %s', (kind) => {
  it('fills at the first recorded tick after its acceptance, not at the first tick the new process sees', async () => {
    const database = await openTestDatabase(kind);
    const btc = INSTRUMENTS.filter((i) => i.symbol === 'BTC');
    const T0 = Date.now();
    const before = new MarketSimulator({
      seed: 'restart-a',
      now: () => T0,
      backfillDays: 0,
      alwaysOpen: true,
      instruments: btc,
    });
    const beforeFeed = new MarketFeed(before);
    before.advanceTo(T0);
    const first = await startTestApp(database.handle, { market: { feed: beforeFeed, record: false } });
    let second: Awaited<ReturnType<typeof startTestApp>> | undefined;
    let afterFeed: MarketFeed | undefined;
    try {
      const session = await first.registerByEmail(uniqueEmail('restart'));
      await new Ledger(database.handle).credit({
        userId: session.user.id,
        requestId: 'seed',
        kind: 'deposit',
        currency: 'USDT',
        amount: 1_000_000_000,
        from: 'deposits_clearing',
        to: 'coin',
      });
      const placed = await first.call(
        'coin/trade',
        { symbol: 'BTC', side: 'buy', type: 'market', qty: '0.001', request_id: 'across-restart' },
        { token: session.token },
      );
      expect(placed.body.type, placed.body.message).toBe('ok');
      const order = placed.body.data as { id: number; created_at: number };
      await first.close();
      beforeFeed.close();
      // What the dead process had recorded: the order's entry tick, 500 ms after its acceptance.
      const entry = {
        symbol: 'BTC',
        seq: 9_000_000,
        ts: order.created_at + 500,
        price: beforeFeed.quote('BTC')?.last ?? '',
      };
      await withPriceRecord(database.handle.db)
        .insertInto('price_ticks')
        .values({ ...entry, instrument_id: instrumentBySymbol('BTC')?.id ?? 0, batch_id: null })
        .execute();

      // The restarted process: its market starts 2 s after the acceptance, with other prices.
      const liveStart = order.created_at + 2_000;
      const after = new MarketSimulator({
        seed: 'restart-b',
        now: () => liveStart,
        liveStart,
        backfillDays: 0,
        alwaysOpen: true,
        instruments: btc,
      });
      afterFeed = new MarketFeed(after);
      second = await startTestApp(database.handle, { market: { feed: afterFeed, record: false } });
      second.clock.advance(liveStart + 1_000 - second.clock.now());
      let tick = 0;
      await vi.waitFor(
        async () => {
          after.advanceTo(liveStart + 1_000 * tick++);
          const row = await withSpot(database.handle.db)
            .selectFrom('spot_orders')
            .select(['state', 'fill_seq', 'fill_ts', 'fill_price'])
            .where('id', '=', order.id)
            .executeTakeFirstOrThrow();
          expect(row.state).toBe('completed');
          expect({ seq: row.fill_seq, ts: row.fill_ts, price: row.fill_price }).toEqual({
            seq: entry.seq,
            ts: entry.ts,
            price: entry.price,
          });
        },
        { timeout: 15_000, interval: 100 },
      );
      expect(describeProblems(await checkLedger(database.handle.db))).toEqual([]);
    } finally {
      await second?.close();
      afterFeed?.close();
      await database.close();
    }
  });
});
