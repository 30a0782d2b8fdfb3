import { performance } from 'node:perf_hooks';
import {
  type CrossPositionAtMark,
  crossAccountLiquidated,
  firesStop,
  initialMargin,
  isolatedLiquidationPrice,
  type LeverSide,
  type LeverTerms,
  reachesLiquidation,
} from '../../protocol/rules/lever';
import { toUnits } from '../../protocol/rules/spot';
import { DEFAULT_LEVER_SETTINGS, leveragesFor, termsFor } from '../../server/domains/lever/terms';
import { instrumentBySymbol } from '../../server/market/instruments';
import { TriggerBook } from '../../server/trading/trigger-book';

/**
 * Lever trigger evaluation per tick on this machine (DESIGN "The trading engine", RULES "Lever": every trigger is
 * checked on every recorded tick). POSITIONS open positions on the 12 lever coins at the default terms: most of them
 * isolated, each with its liquidation price, a stop-loss between the entry and that price and a take-profit, indexed
 * in server/trading/trigger-book.ts's TriggerBook exactly as LeverEngine.rest does (`liquidation:<id>`,
 * `stop_loss:<id>`, `take_profit:<id>`; liquidation and stop-loss fire downward for a long, upward for a short, the
 * take-profit the other way); the rest cross positions in accounts of one to four positions on several coins, whose
 * account is checked (equity against maintenance margin, protocol/rules/lever.ts crossAccountLiquidated) whenever
 * one of its coins ticks, as LeverEngine.crossLiquidations does (which also parses each row's text with unitsOf
 * on every check; here the positions are held as units, so the engine's cross cost is if anything understated).
 * Cross positions carry no take-profit or stop-loss here (their cost is the account check; a cross TP/SL would be
 * one more book entry like an isolated one).
 *
 * TICKS ticks of a random walk (one coin per tick, up to ±0.3%, BENCH_MAX_STEP_BP) are evaluated twice in the same
 * loop (the database writes that follow are not part of it):
 * - engine: TriggerBook.fire, then per row the version check and the strongest trigger (liquidation, stop-loss,
 *   take-profit) and dropping the row's other triggers, as LeverEngine.onTick does; then the cross accounts on the
 *   ticking coin (timed apart as well);
 * - naive: one array of every position, each position of the ticking coin checked with reachesLiquidation and
 *   firesStop in the same precedence, and each cross account met checked once.
 * The closed sets are compared on every tick. Every closed position is opened again at the current price (a closed
 * cross account as a new account), so the book keeps its size; adds are not timed (they happen when orders open).
 */
const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 100_000);
/** Share of the positions that are cross (in accounts of 1 to 4 positions). */
const CROSS_SHARE = Number(process.env.BENCH_CROSS_SHARE ?? 0.05);
// 2,000 ticks keep the run within a minute on a busy 2-core machine, the naive scan taking most of it.
const TICKS = Number(process.env.BENCH_TICKS ?? 2_000);
const TICKS_PER_SECOND = 200;
/** Largest move of one tick, in basis points (the walk of trigger-book.bench.ts: up to ±0.3%). */
const MAX_STEP_BP = Number(process.env.BENCH_MAX_STEP_BP ?? 30);
const SETTINGS = DEFAULT_LEVER_SETTINGS;
const SYMBOLS = Object.keys(SETTINGS.instruments).filter((s) => termsFor(SETTINGS, s) !== undefined);

/** Timing figures for the console (not money): a fixed number of fraction digits. */
const fig = (n: number, digits = 2) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });

/** xorshift32, seeded so that every run measures the same ticks. */
let state = 0x1ee7c0de;
function rand(n: number): number {
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state % n;
}

const TERMS = new Map<string, LeverTerms>(SYMBOLS.map((s) => [s, termsFor(SETTINGS, s) as LeverTerms]));
const LEVERAGES = new Map<string, number[]>(SYMBOLS.map((s) => [s, leveragesFor(SETTINGS, s)]));
const price = new Map<string, bigint>(
  SYMBOLS.map((s) => {
    const i = instrumentBySymbol(s);
    return [s, i ? (toUnits(i.startPrice, i.priceScale) ?? 1n) : 1n];
  }),
);
const priceOf = (symbol: string) => price.get(symbol) ?? 1n;

type Kind = 'liquidation' | 'stop_loss' | 'take_profit';
/** Which of a row's triggers wins when one tick fires several (LeverEngine's PRECEDENCE). */
const PRECEDENCE: Record<Kind, number> = { liquidation: 0, stop_loss: 1, take_profit: 2 };

interface Position {
  id: number;
  version: number;
  symbol: string;
  side: LeverSide;
  lots: bigint;
  entry: bigint;
  terms: LeverTerms;
  /** Set for a cross position: its account. */
  account: string | null;
  lp: bigint | null;
  sl: bigint | null;
  tp: bigint | null;
}

interface Item {
  id: number;
  version: number;
  kind: Kind;
}

let nextId = 0;
let nextAccount = 0;

/** A new position on `symbol` at its current price: random side, lots and leverage. */
function newPosition(symbol: string, account: string | null): Position {
  const terms = TERMS.get(symbol) as LeverTerms;
  const leverages = LEVERAGES.get(symbol) as number[];
  const side: LeverSide = rand(2) ? 'long' : 'short';
  const lots = BigInt(1 + rand(20));
  const entry = priceOf(symbol);
  // Mostly high leverage (liquidation within a few percent), some low.
  const leverage = leverages[leverages.length - 1 - Math.min(leverages.length - 1, rand(4))] as number;
  const margin = initialMargin(lots, entry, leverage, terms);
  const position: Position = {
    id: nextId++,
    version: 1,
    symbol,
    side,
    lots,
    entry,
    terms,
    account,
    lp: null,
    sl: null,
    tp: null,
  };
  if (account !== null) return position;
  const lp = isolatedLiquidationPrice({ side, lots, entry, margin, terms });
  const long = side === 'long';
  position.lp = lp;
  // A take-profit 0.1% to 5% away; a stop-loss 10% to 90% of the way to the liquidation price (RULES: not beyond it).
  const away = 1n + (entry * BigInt(10 + rand(490))) / 10_000n;
  position.tp = long ? entry + away : entry - away > 0n ? entry - away : 1n;
  if (lp !== null) {
    const gap = ((long ? entry - lp : lp - entry) * BigInt(10 + rand(81))) / 100n;
    if (gap > 0n) position.sl = long ? entry - gap : entry + gap;
  }
  return position;
}

/** A cross account of 1 to 4 positions on random coins, its wallet 1 to 1.5 times their initial margins. */
function newAccount(): Position[] {
  const key = `a${nextAccount++}`;
  const n = 1 + rand(4);
  const rows: Position[] = [];
  let margins = 0n;
  for (let k = 0; k < n; k++) {
    const row = newPosition(SYMBOLS[rand(SYMBOLS.length)] as string, key);
    const leverages = LEVERAGES.get(row.symbol) as number[];
    margins += initialMargin(row.lots, row.entry, leverages[leverages.length - 1] as number, row.terms);
    rows.push(row);
  }
  wallets.set(key, (margins * BigInt(100 + rand(51))) / 100n);
  return rows;
}

// --- The engine's index (LeverEngine: rows, book, crossRows, crossBySymbol, wallets). ---
const rows = new Map<number, Position>();
const book = new TriggerBook<Item>();
const crossRows = new Map<string, Map<number, Position>>();
const crossBySymbol = new Map<string, Set<string>>();
const wallets = new Map<string, bigint>();

/** LeverEngine.rest for a holding row. */
function rest(row: Position): void {
  rows.set(row.id, row);
  const add = (kind: Kind, at: bigint | null, upward: boolean) => {
    if (at === null) return;
    book.add({
      id: `${kind}:${row.id}`,
      symbol: row.symbol,
      direction: upward ? 'atOrAbove' : 'atOrBelow',
      price: at,
      item: { id: row.id, version: row.version, kind },
    });
  };
  const long = row.side === 'long';
  if (row.account === null) add('liquidation', row.lp, !long);
  add('stop_loss', row.sl, !long);
  add('take_profit', row.tp, long);
  if (row.account !== null) {
    let account = crossRows.get(row.account);
    if (!account) {
      account = new Map();
      crossRows.set(row.account, account);
    }
    account.set(row.id, row);
    let keys = crossBySymbol.get(row.symbol);
    if (!keys) {
      keys = new Set();
      crossBySymbol.set(row.symbol, keys);
    }
    keys.add(row.account);
  }
}

/** LeverEngine.drop. */
function drop(id: number): void {
  const row = rows.get(id);
  if (!row) return;
  rows.delete(id);
  for (const kind of ['open', 'liquidation', 'stop_loss', 'take_profit'] as const) book.remove(`${kind}:${id}`);
  if (row.account === null) return;
  const key = row.account;
  const account = crossRows.get(key);
  if (account?.delete(id) && account.size === 0) crossRows.delete(key);
  const keys = crossBySymbol.get(row.symbol);
  if (keys && ![...(crossRows.get(key)?.values() ?? [])].some((r) => r.symbol === row.symbol)) {
    keys.delete(key);
    if (keys.size === 0) crossBySymbol.delete(row.symbol);
  }
}

interface Closed {
  id: number;
  reason: Kind;
}

/** LeverEngine.onTick's trigger part: fire, the version check and precedence per row, the row's other triggers out. */
function engineTriggers(symbol: string, tick: bigint, out: Closed[]): void {
  const fired = new Map<number, Item>();
  for (const trigger of book.fire(symbol, tick)) {
    const { item } = trigger;
    if (rows.get(item.id)?.version !== item.version) continue;
    const best = fired.get(item.id);
    if (!best || PRECEDENCE[item.kind] < PRECEDENCE[best.kind]) fired.set(item.id, item);
  }
  for (const item of fired.values()) {
    drop(item.id);
    out.push({ id: item.id, reason: item.kind });
  }
}

/** LeverEngine.crossLiquidations: every account with a position on the ticking coin, every coin at its mark. */
function engineCross(symbol: string, tick: bigint, out: Closed[]): void {
  const keys = crossBySymbol.get(symbol);
  if (!keys) return;
  for (const key of [...keys]) {
    const account = [...(crossRows.get(key)?.values() ?? [])];
    const wallet = wallets.get(key);
    if (wallet === undefined || account.length === 0) continue;
    const positions: CrossPositionAtMark[] = [];
    for (const row of account) {
      const mark = row.symbol === symbol ? tick : priceOf(row.symbol);
      positions.push({ side: row.side, lots: row.lots, entry: row.entry, terms: row.terms, mark });
    }
    if (!crossAccountLiquidated(wallet, 6, positions)) continue;
    for (const row of account) {
      drop(row.id);
      out.push({ id: row.id, reason: 'liquidation' });
    }
  }
}

// --- The naive engine: every position in one array, each of the ticking coin checked on every tick. ---
const all: Position[] = [];
const slot = new Map<number, number>();
const accountRows = new Map<string, Position[]>();

function naiveAdd(row: Position): void {
  slot.set(row.id, all.length);
  all.push(row);
  if (row.account !== null) {
    const list = accountRows.get(row.account);
    if (list) list.push(row);
    else accountRows.set(row.account, [row]);
  }
}

function naiveRemove(at: number): void {
  const row = all[at] as Position;
  const moved = all[all.length - 1] as Position;
  all[at] = moved;
  slot.set(moved.id, at);
  all.pop();
  slot.delete(row.id);
}

function naiveTick(symbol: string, tick: bigint, out: Closed[]): void {
  const checked = new Map<string, boolean>();
  for (let i = 0; i < all.length; ) {
    const p = all[i] as Position;
    if (p.symbol !== symbol) {
      i++;
      continue;
    }
    let reason: Kind | undefined;
    if (p.account === null) {
      if (p.lp !== null && reachesLiquidation(p.side, p.lp, tick)) reason = 'liquidation';
      else if (p.sl !== null && firesStop(p.side, 'stop_loss', p.sl, tick)) reason = 'stop_loss';
      else if (p.tp !== null && firesStop(p.side, 'take_profit', p.tp, tick)) reason = 'take_profit';
    } else {
      let liquidated = checked.get(p.account);
      if (liquidated === undefined) {
        const members = accountRows.get(p.account) ?? [];
        const positions = members.map((r) => ({
          side: r.side,
          lots: r.lots,
          entry: r.entry,
          terms: r.terms,
          mark: r.symbol === symbol ? tick : priceOf(r.symbol),
        }));
        liquidated = crossAccountLiquidated(wallets.get(p.account) ?? 0n, 6, positions);
        checked.set(p.account, liquidated);
      }
      if (liquidated) reason = 'liquidation';
    }
    if (reason === undefined) {
      i++;
      continue;
    }
    out.push({ id: p.id, reason });
    naiveRemove(i);
  }
  // A liquidated account's positions on other coins close with it.
  for (const [key, liquidated] of checked) {
    if (!liquidated) continue;
    for (const row of accountRows.get(key) ?? []) {
      const at = slot.get(row.id);
      if (at === undefined) continue;
      out.push({ id: row.id, reason: 'liquidation' });
      naiveRemove(at);
    }
    accountRows.delete(key);
  }
}

/** Every open position by id, for opening a closed one again after both engines forgot it. */
const live = new Map<number, Position>();

function open(row: Position): void {
  live.set(row.id, row);
  rest(row);
  naiveAdd(row);
}

const crossTarget = Math.round(POSITIONS * CROSS_SHARE);
let crossCount = 0;
while (crossCount < crossTarget) {
  for (const row of newAccount()) {
    open(row);
    crossCount++;
  }
}
for (let i = crossCount; i < POSITIONS; i++) open(newPosition(SYMBOLS[i % SYMBOLS.length] as string, null));
const startTriggers = book.size;

const engineTimes: number[] = [];
const bookTimes: number[] = [];
const crossTimes: number[] = [];
const naiveTimes: number[] = [];
const closedCounts: number[] = [];
const byReason: Record<string, number> = {};
let mismatches = 0;
const started = performance.now();
for (let i = 0; i < TICKS; i++) {
  const symbol = SYMBOLS[rand(SYMBOLS.length)] as string;
  // A random walk of up to ±MAX_STEP_BP per tick (at least one step), never below one step.
  const last = priceOf(symbol);
  const step = 1n + (last * BigInt(rand(MAX_STEP_BP + 1))) / 10_000n;
  const next = rand(2) ? last + step : last - step > 0n ? last - step : 1n;

  const engineClosed: Closed[] = [];
  const t0 = performance.now();
  engineTriggers(symbol, next, engineClosed);
  const t1 = performance.now();
  engineCross(symbol, next, engineClosed);
  const t2 = performance.now();
  const naiveClosed: Closed[] = [];
  naiveTick(symbol, next, naiveClosed);
  const t3 = performance.now();
  // The mark moves after the evaluation (the engine's window holds the tick; other coins' marks are their last).
  price.set(symbol, next);
  bookTimes.push(t1 - t0);
  crossTimes.push(t2 - t1);
  engineTimes.push(t2 - t0);
  naiveTimes.push(t3 - t2);

  const key = (c: Closed[]) =>
    c
      .map((x) => `${x.id}:${x.reason}`)
      .sort()
      .join(',');
  if (engineClosed.length !== naiveClosed.length || key(engineClosed) !== key(naiveClosed)) mismatches++;
  closedCounts.push(engineClosed.length);
  const accounts = new Set<string>();
  for (const c of engineClosed) {
    byReason[c.reason] = (byReason[c.reason] ?? 0) + 1;
    const row = live.get(c.id);
    live.delete(c.id);
    if (!row) continue;
    if (row.account !== null) accounts.add(row.account);
    else open(newPosition(row.symbol, null));
  }
  for (const a of accounts) {
    wallets.delete(a);
    for (const row of newAccount()) open(row);
  }
}
const elapsed = (performance.now() - started) / 1000;

function percentiles(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
  const mean = times.reduce((s, v) => s + v, 0) / Math.max(1, times.length);
  return { p50: pct(0.5), p99: pct(0.99), mean };
}
const us = (v: number) => `${fig(v * 1000, 1).padStart(9)} µs`;
const line = (name: string, times: number[]) => {
  const p = percentiles(times);
  console.log(`${name.padEnd(30)} p50 ${us(p.p50)}  p99 ${us(p.p99)}  mean ${us(p.mean)}`);
  return p;
};
const budgetMs = 1000 / TICKS_PER_SECOND;
const closedTotal = closedCounts.reduce((s, v) => s + v, 0);

console.log(
  `lever trigger evaluation: ${rows.size} open positions (${crossTarget} cross in accounts of 1-4, the rest isolated ` +
    `with liquidation, stop-loss and take-profit; ${startTriggers} resting triggers at the start, ${book.size} at the end) ` +
    `over ${SYMBOLS.length} coins, ${TICKS} ticks (${fig(TICKS / TICKS_PER_SECOND, 0)} s of feed at ${TICKS_PER_SECOND}/s), ` +
    `${closedTotal} closed and opened again (${fig(closedTotal / TICKS)} per tick, p99 ${fig(percentiles(closedCounts).p99, 0)}; ` +
    `${JSON.stringify(byReason)}); run ${fig(elapsed, 1)} s`,
);
const engineP = line('engine (book + cross accounts)', engineTimes);
line('  book.fire + precedence', bookTimes);
line('  cross accounts on the coin', crossTimes);
const naiveP = line('naive scan of every position', naiveTimes);
console.log(
  `${'naive / engine'.padEnd(30)} p50 ${fig(naiveP.p50 / engineP.p50, 0).padStart(9)} x    p99 ${fig(naiveP.p99 / engineP.p99, 0).padStart(9)} x` +
    `  (engine p99 is ${fig((engineP.p99 / budgetMs) * 100, 2)}% of a tick's ${fig(budgetMs, 0)} ms at ${TICKS_PER_SECOND}/s)`,
);
if (rows.size !== all.length || mismatches > 0) {
  console.log(`MISMATCH: engine ${rows.size} vs naive ${all.length} positions, ${mismatches} ticks closed differently`);
  process.exitCode = 1;
}
