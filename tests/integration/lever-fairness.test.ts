import { describe, expect, it } from 'vitest';
import {
  type CloseReason,
  closeAmounts,
  firesStop,
  initialMargin,
  isolatedLiquidationPrice,
  type LeverPositionUnits,
  type LeverSide,
  reachesLiquidation,
  tradeFee,
} from '../../protocol/rules/lever';
import { withLever } from '../../server/domains/lever';
import { DATABASES } from './harness';
import { BTC_TERMS, btc, btcText, leverBench, type Tick, usdt, usdtText } from './lever-checks';

/**
 * Fairness: a recorded "day" of BTC ticks (a seeded random walk with a few gaps, the same every run) replayed
 * through the real engine against 60 random isolated positions opened over HTTP in three waves (long and short, every
 * offered leverage, random take-profits and stop-losses on their valid sides, some exactly on a later tick's price,
 * some with added margin). Independently of the engine, each position's fate is computed from the published tick
 * list alone with the rule functions (protocol/rules/lever.ts): the first tick after its entry tick that reaches its
 * liquidation price, its stop-loss or its take-profit, in that precedence (a tick that reaches several fires the
 * strongest: liquidation > stop-loss > take-profit). The engine must have closed it at exactly that tick (the exit
 * sequence number), for that reason, with the money of closeAmounts; a position no tick reached must still hold; and
 * every user's contract balance must be the funding less the open fees plus each close's share, with only the margins
 * of holding positions held, the ledger audit clean.
 */

/** A small seeded generator (mulberry32): the same walk and the same positions on every run, no Math.random. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
  };
}

const TICKS = 3_000;
const WAVES = [
  { at: 0, size: 30 },
  { at: 1_000, size: 15 },
  { at: 2_000, size: 15 },
];
const USERS = 6;
const FUNDING = '50000';
/** The engine is given time to catch up every this many ticks. */
const DRAIN_EVERY = 50;

/** The day: cents of BTC, starting at 60,000.00 (the last price before it), steps of about ±20 USDT, rare gaps. */
function walk(seed: number): bigint[] {
  const rng = generator(seed);
  const prices: bigint[] = [btc('60000.00')];
  let p = prices[0] as bigint;
  while (prices.length < TICKS) {
    // Whole cents only: the sum of three uniform steps leans toward small moves, like the market's.
    let step = rng.int(-2_000, 2_000) + rng.int(-2_000, 2_000) + rng.int(-2_000, 2_000);
    if (rng.chance(0.004)) step = (rng.chance(0.5) ? 1 : -1) * rng.int(20_000, 80_000);
    p += BigInt(step);
    if (p < btc('1000.00')) p = btc('1000.00');
    prices.push(p);
  }
  return prices;
}

interface Plan {
  wave: number;
  /** Index of the user (of USERS) who opens it. */
  owner: number;
  side: LeverSide;
  lots: bigint;
  leverage: number;
  /** Added margin (USDT units), 0 for none. */
  added: bigint;
  /** TP and SL given with the order (wave 0 only: its entry tick is at the last price, the order's reference). */
  stopsAtSubmit: boolean;
  takeProfit: bigint | null;
  stopLoss: bigint | null;
}

interface Placed extends Plan {
  id: number;
  entryIndex: number;
  units: LeverPositionUnits;
  lp: bigint | null;
  expected: { index: number; reason: CloseReason } | null;
}

/** The first tick after the entry that fires the position, by the rules and their precedence; null when none does. */
function fate(p: Placed, prices: readonly bigint[]): Placed['expected'] {
  for (let k = p.entryIndex + 1; k < prices.length; k++) {
    const tick = prices[k] as bigint;
    if (p.lp !== null && reachesLiquidation(p.side, p.lp, tick)) return { index: k, reason: 'liquidation' };
    if (p.stopLoss !== null && firesStop(p.side, 'stop_loss', p.stopLoss, tick))
      return { index: k, reason: 'stop_loss' };
    if (p.takeProfit !== null && firesStop(p.side, 'take_profit', p.takeProfit, tick)) {
      return { index: k, reason: 'take_profit' };
    }
  }
  return null;
}

describe.each(DATABASES)('lever fairness on %s', (kind) => {
  const b = leverBench(kind, ['BTC', 'ETH']);

  it('a recorded day replayed tick by tick closes every position at exactly the tick the rules name', async () => {
    const prices = walk(20_260_101);
    const rng = generator(7);
    const users: { token: string; id: number }[] = [];
    for (let k = 0; k < USERS; k++) users.push(await b.trader(FUNDING));
    const deal = await b.ok('lever/deal', { account: 'real' }, users[0]?.token);
    const leverages = deal.instruments.find((i) => i.symbol === 'BTC')?.leverages ?? [];
    expect(leverages.length).toBeGreaterThan(3);
    // A sentinel on ETH: its take-profit tick, published after the whole day, is behind every BTC tick in the
    // engine's queue, so once it has closed the engine has acted on the whole day.
    const watcher = await b.trader('1000');
    const sentinel = await b.ok(
      'lever/submit',
      b.order({ symbol: 'ETH', lots: '1', take_profit: '3000.01' }),
      watcher.token,
    );
    b.trade('ETH', '3000.00');
    await b.phase(watcher.token, sentinel.id, 'holding');

    /** Stops on the valid sides of `entry` (SL strictly between the LP and the entry); some exactly on a later tick. */
    function stops(side: LeverSide, entry: bigint, lp: bigint | null, from: number) {
      const long = side === 'long';
      let takeProfit: bigint | null = null;
      let stopLoss: bigint | null = null;
      const validTp = (x: bigint) => (long ? x > entry : x < entry && x > 0n);
      const validSl = (x: bigint) =>
        long ? x < entry && (lp === null || x > lp) : x > entry && (lp === null || x < lp);
      if (rng.chance(0.35)) {
        // Exactly on the highest (or lowest) price of the next few hundred ticks: the first tick that reaches it
        // is at it, not past it ("at or above" is tested at the boundary).
        const window = prices.slice(from + 1, from + 1 + rng.int(20, 400));
        const top = window.reduce((m, x) => (x > m ? x : m), entry);
        const bottom = window.reduce((m, x) => (x < m ? x : m), entry);
        const [gain, loss] = long ? [top, bottom] : [bottom, top];
        if (validTp(gain)) takeProfit = gain;
        else if (validSl(loss)) stopLoss = loss;
      }
      if (takeProfit === null && rng.chance(0.6)) {
        const distance = BigInt(rng.int(1, Number((entry * 3n) / 100n)));
        takeProfit = long ? entry + distance : entry - distance;
      }
      if (stopLoss === null && rng.chance(0.6)) {
        const room = lp === null ? (entry * 3n) / 100n : long ? entry - lp : lp - entry;
        const distance = 1n + BigInt(Math.floor(rng.next() * Number(room - 1n)));
        const candidate = long ? entry - distance : entry + distance;
        if (validSl(candidate)) stopLoss = candidate;
      }
      return { takeProfit, stopLoss };
    }

    const placed: Placed[] = [];
    const published: Tick[] = [];
    const publish = (index: number) => {
      const tick = b.trade('BTC', btcText(prices[index] as bigint));
      published[index] = tick;
      return tick;
    };

    /** Waits until the positions the rules close at or before `index` are closed (the engine caught up to there). */
    async function drain(index: number, timeout = 15_000) {
      const due = placed.filter((p) => p.expected !== null && p.expected.index <= index).map((p) => p.id);
      const deadline = Date.now() + timeout;
      for (;;) {
        await b.settle();
        if (due.length === 0) return;
        const closed = await withLever(b.t.db)
          .selectFrom('lever_positions')
          .select('id')
          .where('id', 'in', due)
          .where('phase', '=', 'closed')
          .execute();
        if (closed.length >= due.length || Date.now() > deadline) return;
      }
    }

    async function openWave(wave: number) {
      const { at, size } = WAVES[wave] as (typeof WAVES)[number];
      const plans: Plan[] = Array.from({ length: size }, () => ({
        wave,
        owner: rng.int(0, USERS - 1),
        side: rng.chance(0.5) ? 'long' : 'short',
        lots: BigInt(rng.int(1, 20)),
        leverage: rng.pick(leverages),
        added: 0n,
        stopsAtSubmit: wave === 0 && rng.chance(0.5),
        takeProfit: null,
        stopLoss: null,
      }));
      const accepted: { plan: Plan; id: number }[] = [];
      for (const plan of plans) {
        const fields: Record<string, string> = {
          side: plan.side,
          lots: String(plan.lots),
          leverage: String(plan.leverage),
        };
        if (plan.stopsAtSubmit) {
          // The reference is the last price, which the entry tick repeats (prices[0] = 60,000.00).
          const entry = prices[at] as bigint;
          const margin = initialMargin(plan.lots, entry, plan.leverage, BTC_TERMS);
          const lp = isolatedLiquidationPrice({ side: plan.side, lots: plan.lots, entry, margin, terms: BTC_TERMS });
          Object.assign(plan, stops(plan.side, entry, lp, at));
          if (plan.takeProfit !== null) fields.take_profit = btcText(plan.takeProfit);
          if (plan.stopLoss !== null) fields.stop_loss = btcText(plan.stopLoss);
        }
        const user = users[plan.owner] as { token: string; id: number };
        const order = await b.ok('lever/submit', b.order(fields), user.token);
        accepted.push({ plan, id: order.id });
      }
      const entry = publish(at);
      for (const { plan, id } of accepted) {
        const user = users[plan.owner] as { token: string; id: number };
        const open = await b.phase(user.token, id, 'holding');
        expect(open.entry?.seq).toBe(entry.seq);
        const entryUnits = btc(open.entry_price ?? '0');
        const margin = BigInt(usdt(open.initial_margin ?? '0'));
        if (rng.chance(0.25)) {
          plan.added = BigInt(rng.int(1, Number(margin)));
          await b.ok(
            'lever/add_margin',
            { id: String(id), amount: usdtText(plan.added), request_id: b.rid() },
            user.token,
          );
        }
        const units: LeverPositionUnits = {
          side: plan.side,
          lots: plan.lots,
          entry: entryUnits,
          margin: margin + plan.added,
          terms: BTC_TERMS,
        };
        const lp = isolatedLiquidationPrice(units);
        if (!plan.stopsAtSubmit) {
          Object.assign(plan, stops(plan.side, entryUnits, lp, at));
          if (plan.takeProfit !== null || plan.stopLoss !== null) {
            const fields: Record<string, string> = { id: String(id) };
            if (plan.takeProfit !== null) fields.take_profit = btcText(plan.takeProfit);
            if (plan.stopLoss !== null) fields.stop_loss = btcText(plan.stopLoss);
            await b.ok('lever/setstop', fields, user.token);
          }
        }
        const now = await b.ok('lever/info', { id: String(id) }, user.token);
        // The engine's LP is the rule's, for the margin it holds now.
        expect(now.Liquidation_Price).toBe(lp === null ? null : btcText(lp));
        const p: Placed = { ...plan, id, entryIndex: at, units, lp, expected: null };
        p.expected = fate(p, prices);
        placed.push(p);
      }
    }

    for (let wave = 0; wave < WAVES.length; wave++) {
      await openWave(wave);
      const end = WAVES[wave + 1]?.at ?? TICKS;
      for (let k = (WAVES[wave]?.at ?? 0) + 1; k < end; k++) {
        publish(k);
        if (k % DRAIN_EVERY === 0) await drain(k);
      }
      await drain(end - 1);
    }
    await drain(TICKS - 1);
    b.trade('ETH', '3000.01');
    await b.phase(watcher.token, sentinel.id, 'closed', 30_000);

    // Every position against its fate.
    const rows = new Map(
      (await withLever(b.t.db).selectFrom('lever_positions').selectAll().execute()).map((r) => [r.id, r] as const),
    );
    const problems: string[] = [];
    const reasons: Record<string, number> = {};
    for (const p of placed) {
      const row = rows.get(p.id);
      const name = `#${p.id} ${p.side} ${p.lots} lots ${p.leverage}x entry ${btcText(p.units.entry)} LP ${
        p.lp === null ? '--' : btcText(p.lp)
      } SL ${p.stopLoss === null ? '-' : btcText(p.stopLoss)} TP ${p.takeProfit === null ? '-' : btcText(p.takeProfit)}`;
      const key = p.expected?.reason ?? 'holding';
      reasons[key] = (reasons[key] ?? 0) + 1;
      if (!row) {
        problems.push(`${name}: no row`);
        continue;
      }
      if (p.expected === null) {
        if (row.phase !== 'holding') {
          problems.push(`${name}: expected holding, got ${row.phase} ${row.close_reason} at seq ${row.exit_seq}`);
        }
        continue;
      }
      const tick = published[p.expected.index] as Tick;
      const got = `${row.phase} ${row.close_reason} at seq ${row.exit_seq} (${row.exit_price})`;
      const want = `closed ${p.expected.reason} at seq ${tick.seq} (${tick.price})`;
      if (row.phase !== 'closed' || row.close_reason !== p.expected.reason || row.exit_seq !== tick.seq) {
        problems.push(`${name}: expected ${want}, got ${got}`);
        continue;
      }
      const money = closeAmounts(p.units, btc(tick.price), p.expected.reason, p.units.margin);
      if (
        row.exit_price !== tick.price ||
        BigInt(row.realized_pnl ?? 0) !== money.pnl ||
        BigInt(row.insurance ?? 0) !== money.insurance ||
        BigInt(row.close_fee ?? 0) !== money.feePaid
      ) {
        problems.push(
          `${name}: money pnl ${row.realized_pnl}/${money.pnl} insurance ${row.insurance}/${money.insurance} fee ${row.close_fee}/${money.feePaid}`,
        );
      }
    }
    expect(problems).toEqual([]);
    // The day exercises every outcome.
    for (const reason of ['liquidation', 'stop_loss', 'take_profit', 'holding']) {
      expect(reasons[reason], JSON.stringify(reasons)).toBeGreaterThan(0);
    }

    // Each user's money: funding, less the open fees, plus each close's share; held: the holding positions' margins.
    for (let owner = 0; owner < USERS; owner++) {
      const user = users[owner] as { token: string; id: number };
      let balance = BigInt(usdt(FUNDING));
      let held = 0n;
      for (const p of placed.filter((q) => q.owner === owner)) {
        balance -= tradeFee(p.lots, p.units.entry, BTC_TERMS);
        if (p.expected === null) held += p.units.margin;
        else {
          const exit = btc((published[p.expected.index] as Tick).price);
          balance += closeAmounts(p.units, exit, p.expected.reason, p.units.margin).userDelta;
        }
      }
      expect(await b.contract(user.id), `user ${owner}`).toEqual({
        balance: Number(balance),
        available: Number(balance - held),
      });
    }
    expect(await b.ledgerProblems()).toEqual([]);
  }, 120_000);
});
