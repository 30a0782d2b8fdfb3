import { performance } from 'node:perf_hooks';
import { type Trigger, TriggerBook, type TriggerDirection } from '../../server/trading/trigger-book';

/**
 * Trigger evaluation per tick on this machine (DESIGN "The trading engine": a tick costs O(log n + fired), not a
 * scan). TRIGGERS resting triggers across the 14 coin symbols sit around each symbol's random-walk price (buys
 * below, sells above, as resting limits do); TICKS ticks (at 200 ticks/s, TICKS / 200 seconds of feed, simulated
 * without sleeping) move one symbol's price each and fire what they cross. Every fired trigger is placed again
 * around the new price, so the book keeps its size.
 *
 * The same ticks run through the TriggerBook and through a naive scan of the same triggers (one array of all of
 * them, each checked on every tick) in the same run and the same loop; the fired sets are compared on every tick,
 * and per-tick times are printed with the ratio. Adds are not timed: they happen when orders are placed.
 */
const TRIGGERS = Number(process.env.BENCH_TRIGGERS ?? 100_000);
// 10,000 ticks keep the run near 25 s here, the naive scan taking most of it (set BENCH_TICKS for more).
const TICKS = Number(process.env.BENCH_TICKS ?? 10_000);
const TICKS_PER_SECOND = 200;
const SYMBOLS = ['BTC', 'ETH', 'USDT', 'USDC', 'SOL', 'BNB', 'XRP', 'ADA', 'DOGE', 'TRX', 'LTC', 'DOT', 'LINK', 'AVAX'];
/** Starting prices in units of the price step (a few steps for stablecoins, many for BTC). */
const START: Record<string, bigint> = {
  BTC: 6_425_037n,
  ETH: 312_545n,
  USDT: 10_000n,
  USDC: 10_000n,
  SOL: 14_512n,
  BNB: 58_210n,
  XRP: 52_134n,
  ADA: 45_120n,
  DOGE: 12_345n,
  TRX: 12_010n,
  LTC: 8_123n,
  DOT: 7_012n,
  LINK: 14_230n,
  AVAX: 3_512n,
};

/** Timing figures for the console (not money): a fixed number of fraction digits. */
const fig = (n: number, digits = 2) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });

/** xorshift32, seeded so that every run measures the same ticks. */
let state = 0x2545f491;
function rand(n: number): number {
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state % n;
}

const price = new Map<string, bigint>(SYMBOLS.map((s) => [s, START[s] ?? 10_000n]));
const priceOf = (symbol: string) => price.get(symbol) ?? 0n;

let nextId = 0;
/** A new resting trigger within ±2% of the symbol's price, on the side that has not crossed yet. */
function newTrigger(symbol: string): Trigger<number> {
  const last = priceOf(symbol);
  const direction: TriggerDirection = rand(2) ? 'atOrBelow' : 'atOrAbove';
  // Offsets in basis points of the price, at least one step so that a new trigger never fires on the next tick.
  const offset = 1n + (last * BigInt(1 + rand(200))) / 10_000n;
  const id = nextId++;
  return {
    id: `t${id}`,
    symbol,
    direction,
    price: direction === 'atOrBelow' ? last - offset : last + offset,
    item: id,
  };
}

/** The naive engine: every trigger in one array, each looked at on every tick; fired ones swapped out. */
const all: Trigger<number>[] = [];
function naiveFire(symbol: string, tick: bigint): Trigger<number>[] {
  const fired: Trigger<number>[] = [];
  for (let i = 0; i < all.length; ) {
    const x = all[i] as Trigger<number>;
    if (x.symbol === symbol && (x.direction === 'atOrBelow' ? tick <= x.price : tick >= x.price)) {
      fired.push(x);
      all[i] = all[all.length - 1] as Trigger<number>;
      all.pop();
    } else {
      i++;
    }
  }
  return fired;
}

const book = new TriggerBook<number>();
for (let i = 0; i < TRIGGERS; i++) {
  const trigger = newTrigger(SYMBOLS[i % SYMBOLS.length] as string);
  book.add(trigger);
  all.push(trigger);
}

const bookTimes: number[] = [];
const scanTimes: number[] = [];
const firedCounts: number[] = [];
let firedTotal = 0;
let mismatches = 0;
const started = performance.now();
for (let i = 0; i < TICKS; i++) {
  const symbol = SYMBOLS[rand(SYMBOLS.length)] as string;
  // A random walk of up to ±0.3% per tick (at least one step), never below one step.
  const last = priceOf(symbol);
  const step = 1n + (last * BigInt(rand(31))) / 10_000n;
  const next = rand(2) ? last + step : last - step > 0n ? last - step : 1n;
  price.set(symbol, next);

  let t = performance.now();
  const fired = book.fire(symbol, next);
  bookTimes.push(performance.now() - t);
  t = performance.now();
  const scanned = naiveFire(symbol, next);
  scanTimes.push(performance.now() - t);

  if (fired.length !== scanned.length) mismatches++;
  else if (fired.length > 0) {
    const a = fired.map((x) => x.item).sort((p, q) => p - q);
    const b = scanned.map((x) => x.item).sort((p, q) => p - q);
    if (a.some((v, k) => v !== b[k])) mismatches++;
  }
  firedTotal += fired.length;
  firedCounts.push(fired.length);
  for (let k = 0; k < fired.length; k++) {
    const trigger = newTrigger(symbol);
    book.add(trigger);
    all.push(trigger);
  }
}
const elapsed = (performance.now() - started) / 1000;

function percentiles(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
  const mean = times.reduce((s, v) => s + v, 0) / Math.max(1, times.length);
  return { p50: pct(0.5), p99: pct(0.99), mean };
}
const ms = (v: number) => `${fig(v * 1000, 1).padStart(8)} µs`;
const bookP = percentiles(bookTimes);
const scanP = percentiles(scanTimes);
const budgetMs = 1000 / TICKS_PER_SECOND;

console.log(
  `trigger evaluation: ${book.size} resting triggers over ${SYMBOLS.length} symbols, ${TICKS} ticks ` +
    `(${fig(TICKS / TICKS_PER_SECOND, 0)} s of feed at ${TICKS_PER_SECOND} ticks/s), ` +
    `${firedTotal} fired and placed again (${fig(firedTotal / TICKS)} per tick, p99 ${fig(percentiles(firedCounts).p99, 0)}); ` +
    `run ${fig(elapsed, 1)} s`,
);
console.log(`${'TriggerBook.fire'.padEnd(24)} p50 ${ms(bookP.p50)}  p99 ${ms(bookP.p99)}  mean ${ms(bookP.mean)}`);
console.log(`${'naive scan'.padEnd(24)} p50 ${ms(scanP.p50)}  p99 ${ms(scanP.p99)}  mean ${ms(scanP.mean)}`);
console.log(
  `${'scan / book'.padEnd(24)} p50 ${fig(scanP.p50 / bookP.p50, 0).padStart(8)} x   p99 ${fig(scanP.p99 / bookP.p99, 0).padStart(8)} x` +
    `  (book p99 is ${fig((bookP.p99 / budgetMs) * 100, 3)}% of a tick's ${fig(budgetMs, 0)} ms at ${TICKS_PER_SECOND}/s)`,
);
if (book.size !== all.length || mismatches > 0) {
  console.log(`MISMATCH: book ${book.size} vs scan ${all.length} triggers, ${mismatches} ticks fired differently`);
  process.exitCode = 1;
}
