import type { Kysely } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { OPEN_LEVER_PHASES } from '../../protocol/lever';
import { SIMULATOR_FUNDS } from '../../protocol/options';
import {
  type CloseReason,
  closeAmounts,
  firesStop,
  initialMargin,
  isolatedLiquidationPrice,
  type LeverPositionUnits,
  type LeverTerms,
  reachesLiquidation,
  tradeFee,
} from '../../protocol/rules/lever';
import { fromUnits, toUnits } from '../../protocol/rules/spot';
import { ENTRY_TICK_WAIT_MS } from '../../protocol/spot';
import { readLeverSettings, setLeverSettings, termsFor } from '../../server/domains/lever/terms';
import { currencyScale } from '../../server/ledger/amounts';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { MarketFeed } from '../../server/market/feed';
import { instrumentBySymbol } from '../../server/market/instruments';
import type { DatabaseHandle } from '../../server/platform/db/connect';
import type { Database } from '../../server/platform/db/schema';
import {
  type BookFunding,
  crashSite,
  enrolTraders,
  expectAcknowledgedKept,
  firstPrices,
  startClients,
  until,
} from './crash-kit';
import { HandMarket } from './hand-market';
import { DATABASES, openTestDatabase, startTestApp, uniqueEmail } from './harness';
import { ledgerAndChainProblems } from './spot-checks';

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
    const settings = await readTerms(db);

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
      const lastTicks = await db
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

const positions = (db: Kysely<Database>) => db.selectFrom('lever_positions');

/** The terms in force per symbol (with the MMR the test set), as the rules take them. */
async function readTerms(db: Kysely<Database>): Promise<Map<string, LeverTerms>> {
  const settings = await readLeverSettings(db);
  const terms = new Map<string, LeverTerms>();
  for (const symbol of SYMBOLS) {
    const t = termsFor(settings, symbol);
    if (!t) throw new Error(`no lever terms for ${symbol}`);
    terms.set(symbol, t);
  }
  return terms;
}

interface LeverCheck {
  problems: string[];
  /** Closed positions per close reason (and cancelled ones per cancel reason). */
  reasons: Record<string, number>;
  /** The most positions one tick closed. */
  crowd: number;
  /** The longest time from acceptance to the entry tick of an opened position (ms). */
  slowestEntry: number;
}

/** Which of a position's prices a tick reaches, strongest first (liquidation, stop-loss, take-profit). */
function reached(
  side: 'long' | 'short',
  prices: { lp: bigint | null; sl: bigint | null; tp: bigint | null },
  tick: bigint,
): CloseReason | undefined {
  if (prices.lp !== null && reachesLiquidation(side, prices.lp, tick)) return 'liquidation';
  if (prices.sl !== null && firesStop(side, 'stop_loss', prices.sl, tick)) return 'stop_loss';
  if (prices.tp !== null && firesStop(side, 'take_profit', prices.tp, tick)) return 'take_profit';
  return undefined;
}

/**
 * The whole-database checks, independent of the engine's code paths: every position from its row, its ledger
 * entries and holds, and the recorded ticks (price_ticks) read back here.
 */
async function checkLeverPositions(handle: DatabaseHandle, funding: readonly BookFunding[]): Promise<LeverCheck> {
  const db = handle.db;
  const problems: string[] = [];
  const reasons: Record<string, number> = {};
  const rows = await positions(db).selectAll().orderBy('id').execute();

  const entries = await db
    .selectFrom('ledger_entries')
    .select(['user_id', 'request_id'])
    .where('request_id', 'like', 'lever-close:%')
    .execute();
  const closeEntries = new Map<string, number>();
  for (const e of entries) {
    const key = `${e.user_id}/${e.request_id}`;
    closeEntries.set(key, (closeEntries.get(key) ?? 0) + 1);
  }
  const holds = new Map(
    (await db.selectFrom('ledger_holds').select(['id', 'state']).execute()).map((h) => [h.id, h.state]),
  );
  const pins = new Set(
    (await db.selectFrom('price_pins').select(['symbol', 'seq', 'owner']).execute()).map(
      (p) => `${p.owner}/${p.symbol}/${p.seq}`,
    ),
  );
  const ticks = new Map<string, { seq: number; ts: number; price: string }[]>();
  for (const symbol of new Set(rows.map((r) => r.symbol))) {
    ticks.set(
      symbol,
      await db
        .selectFrom('price_ticks')
        .select(['seq', 'ts', 'price'])
        .where('symbol', '=', symbol)
        .orderBy('ts')
        .orderBy('seq')
        .execute(),
    );
  }
  // What each account's positions took from it: open fees and what the closes moved.
  const moved = new Map<string, bigint>();
  const closedAt = new Map<string, number>();
  let slowestEntry = 0;

  for (const row of rows) {
    const name = `position ${row.id} (${row.side} ${row.lots} ${row.symbol}, ${row.close_reason ?? row.cancel_reason})`;
    const closeCount = closeEntries.get(`${row.user_id}/lever-close:${row.id}`) ?? 0;
    const reason = row.phase === 'closed' ? (row.close_reason ?? 'none') : `cancelled:${row.cancel_reason}`;
    reasons[reason] = (reasons[reason] ?? 0) + 1;
    if (row.reserve_hold_id !== null && holds.get(row.reserve_hold_id) !== 'voided') {
      problems.push(`${name}: reserve hold ${holds.get(row.reserve_hold_id)}`);
    }
    if (row.phase === 'cancelled') {
      // RULES "No tick, no trade": cancelled for want of a tick only if the record has none within the wait.
      const entryTick = (ticks.get(row.symbol) ?? []).find((t) => t.ts > row.accepted_at);
      if (row.cancel_reason === 'no_tick' && entryTick && entryTick.ts - row.accepted_at <= ENTRY_TICK_WAIT_MS) {
        problems.push(
          `${name}: cancelled, but tick ${entryTick.seq} came ${entryTick.ts - row.accepted_at} ms after acceptance`,
        );
      }
      if (closeCount !== 0) problems.push(`${name}: cancelled with ${closeCount} close entries`);
      if (row.margin_hold_id !== null) problems.push(`${name}: cancelled with a margin hold`);
      continue;
    }
    if (row.phase !== 'closed') {
      problems.push(`${name}: still ${row.phase}`);
      continue;
    }
    if (closeCount !== 1) problems.push(`${name}: ${closeCount} close entries, not one`);
    if (row.margin_hold_id === null || holds.get(row.margin_hold_id) !== 'voided') {
      problems.push(`${name}: margin hold ${row.margin_hold_id === null ? 'missing' : holds.get(row.margin_hold_id)}`);
    }
    const series = ticks.get(row.symbol) ?? [];
    const scale = row.price_scale;
    const units = (text: string) => toUnits(text, scale) ?? 0n;
    if (row.entry_seq === null || row.entry_price === null || row.margin === null || row.exit_seq === null) {
      problems.push(`${name}: closed without an entry or exit`);
      continue;
    }
    // The entry: the first recorded tick after acceptance, recorded as stored and pinned.
    const entryTick = series.find((t) => t.ts > row.accepted_at);
    if (entryTick?.seq !== row.entry_seq || entryTick.price !== row.entry_price || entryTick.ts !== row.entry_ts) {
      problems.push(`${name}: entry tick ${row.entry_seq}, the first recorded after acceptance is ${entryTick?.seq}`);
    }
    if (!pins.has(`lever:${row.id}/${row.symbol}/${row.entry_seq}`)) problems.push(`${name}: entry tick not pinned`);
    slowestEntry = Math.max(slowestEntry, (row.entry_ts ?? 0) - row.accepted_at);
    const t: LeverTerms = {
      contractSize: row.contract_size,
      mmr: row.mmr,
      feeRate: row.fee_rate,
      priceScale: scale,
      quoteScale: currencyScale('USDT'),
    };
    const lots = BigInt(row.lots);
    const entry = units(row.entry_price);
    const margin = initialMargin(lots, entry, row.leverage, t);
    const position: LeverPositionUnits = {
      side: row.side,
      lots,
      entry,
      margin: margin + BigInt(row.added_margin),
      terms: t,
    };
    const lp = isolatedLiquidationPrice(position);
    if (BigInt(row.margin) !== margin) problems.push(`${name}: margin ${row.margin}, the rule gives ${margin}`);
    if (row.open_fee === null || BigInt(row.open_fee) !== tradeFee(lots, entry, t)) {
      problems.push(`${name}: open fee ${row.open_fee}, the rule gives ${tradeFee(lots, entry, t)}`);
    }
    if (row.liq_price !== (lp === null ? null : fromUnits(lp, scale))) {
      problems.push(`${name}: liquidation price ${row.liq_price}, the rule gives ${lp}`);
    }
    // The close: the first recorded tick after the entry that reaches one of its prices, for the strongest reason.
    const prices = {
      lp,
      sl: row.sl_price === null ? null : units(row.sl_price),
      tp: row.tp_price === null ? null : units(row.tp_price),
    };
    let expected: { seq: number; ts: number; price: string; reason: CloseReason } | undefined;
    for (const tick of series) {
      if (tick.seq <= row.entry_seq) continue;
      const why = reached(row.side, prices, units(tick.price));
      if (why) {
        expected = { ...tick, reason: why };
        break;
      }
    }
    const exit = series.find((tick) => tick.seq === row.exit_seq);
    if (!exit || exit.ts !== row.exit_ts || exit.price !== row.exit_price) {
      problems.push(`${name}: exit tick ${row.exit_seq} ${row.exit_price} is not in the record as stored`);
      continue;
    }
    if (!pins.has(`lever:${row.id}/${row.symbol}/${row.exit_seq}`)) problems.push(`${name}: exit tick not pinned`);
    if (row.close_reason === 'liquidation' && (lp === null || !reachesLiquidation(row.side, lp, units(exit.price)))) {
      problems.push(
        `${name}: liquidated at ${exit.price} (tick ${exit.seq}), its liquidation price is ${row.liq_price}`,
      );
    }
    if (row.close_reason === 'user') {
      problems.push(`${name}: closed by the user, which nobody asked`);
    } else if (expected?.seq !== row.exit_seq || expected.reason !== row.close_reason) {
      problems.push(
        `${name}: closed at tick ${row.exit_seq} (${row.exit_price}) for ${row.close_reason}; the first recorded tick ` +
          `reaching its prices (lp ${row.liq_price}, sl ${row.sl_price}, tp ${row.tp_price}) after its entry ` +
          `${row.entry_seq} (${row.entry_price}) is ${expected ? `${expected.seq} (${expected.price}) for ${expected.reason}` : 'none'}`,
      );
    }
    // The money of the close, by the rule (an isolated position can lose its margin and no more).
    const amounts = closeAmounts(
      position,
      units(exit.price),
      (row.close_reason ?? 'user') as CloseReason,
      position.margin,
    );
    const stored = { pnl: row.realized_pnl, fee: row.close_fee, insurance: row.insurance };
    const rule = { pnl: Number(amounts.pnl), fee: Number(amounts.feePaid), insurance: Number(amounts.insurance) };
    if (JSON.stringify(stored) !== JSON.stringify(rule)) {
      problems.push(`${name}: close money ${JSON.stringify(stored)}, the rule gives ${JSON.stringify(rule)}`);
    }
    const account = `${row.user_id}/${row.book}`;
    moved.set(account, (moved.get(account) ?? 0n) - BigInt(row.open_fee ?? 0) + amounts.userDelta);
    const at = `${row.symbol}/${row.exit_seq}`;
    closedAt.set(at, (closedAt.get(at) ?? 0) + 1);
  }

  // Every contract account: its funding plus what its positions moved, nothing held.
  const ledger = new Ledger(handle);
  for (const f of funding) {
    const balance = (await ledger.balances(f.userId, f.book)).find(
      (b) => b.type === 'contract' && b.currency === 'USDT',
    );
    const want = BigInt(f.units) + (moved.get(`${f.userId}/${f.book}`) ?? 0n);
    if (BigInt(balance?.balance ?? 0) !== want || (balance?.held ?? 0) !== 0) {
      problems.push(
        `user ${f.userId} ${f.book} contract: balance ${balance?.balance} held ${balance?.held}, expected ${want} held 0`,
      );
    }
  }
  problems.push(...(await ledgerAndChainProblems(db)));
  return { problems, reasons, crowd: Math.max(0, ...closedAt.values()), slowestEntry };
}

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
      const row = () => db.selectFrom('lever_positions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      await vi.waitFor(async () => expect((await row()).phase).toBe('holding'), { timeout: 20_000, interval: 20 });
      const opened = await row();
      // (600 − 60) / (0.01 × 0.995) = 54,271.356… rounded down to the cent.
      expect(opened.liq_price).toBe('54271.35');
      await first.close();
      beforeFeed.close();
      // What the dead process had recorded after the open: a tick past the liquidation price.
      const recorded = { symbol: 'BTC', seq: 3, ts: opened.updated_at + 500, price: '54000.00' };
      await db
        .insertInto('price_ticks')
        .values({ ...recorded, instrument_id: instrumentBySymbol('BTC')?.id ?? 0, batch_id: null })
        .execute();

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
