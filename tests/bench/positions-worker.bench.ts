import { performance } from 'node:perf_hooks';
import type { LeverAccount, LeverPosition } from '../../protocol/lever';
import {
  add,
  type CrossPositionAtMark,
  crossLiquidationPrice,
  type Exact,
  initialMargin,
  isolatedLiquidationPrice,
  type LeverTerms,
  liquidationDistanceText,
  maintenanceMarginExact,
  marginRatioText,
  pnlUnits,
  roeText,
  unrealisedPnlExact,
} from '../../protocol/rules/lever';
import { fromUnits, toUnits } from '../../protocol/rules/spot';
import { type PositionFigures, PositionsCompute, type PositionsUpdate } from '../../workers/lever/positions-compute';

/**
 * The positions worker's compute time per mark update (issue "The worker": 1,000 open positions, one mark update,
 * target ≤ 5 ms median). POSITIONS open positions over 10 instruments, half isolated and half cross, on both books;
 * UPDATES updates move one symbol's mark (a random walk of up to ±0.3%), then ALL_UPDATES move every symbol at
 * once. Timed: PositionsCompute.applyMarks, and apart from it the structured clone of its result (what postMessage
 * copies back to the page).
 *
 * Baseline, in the same run and loop: a naive recompute of every position from the wire strings on every update,
 * calling the rules the obvious way (each cross LP with the real list of the other cross positions, O(n²) per
 * book). It is slow, so it runs for one update in NAIVE_EVERY, after the timed ones, and its figures are compared
 * with the worker's at each: any difference is printed as a MISMATCH and fails the run.
 */
const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 1_000);
const UPDATES = Number(process.env.BENCH_UPDATES ?? 2_000);
const ALL_UPDATES = Number(process.env.BENCH_ALL_UPDATES ?? 500);
const NAIVE_EVERY = Number(process.env.BENCH_NAIVE_EVERY ?? 50);
const WARMUP = 200;
const TARGET_MS = 5;
const QUOTE_SCALE = 6;

/** Ten instruments: price scale, contract size (a lot worth roughly 10–100 USDT) and a start price in price units. */
const INSTRUMENTS = [
  { symbol: 'BTCUSDT', scale: 2, size: '0.001', start: 6_425_037n },
  { symbol: 'ETHUSDT', scale: 2, size: '0.01', start: 312_545n },
  { symbol: 'SOLUSDT', scale: 3, size: '0.1', start: 145_123n },
  { symbol: 'BNBUSDT', scale: 2, size: '0.1', start: 58_210n },
  { symbol: 'XRPUSDT', scale: 4, size: '10', start: 5_213n },
  { symbol: 'ADAUSDT', scale: 4, size: '10', start: 4_512n },
  { symbol: 'DOGEUSDT', scale: 5, size: '100', start: 12_345n },
  { symbol: 'TRXUSDT', scale: 5, size: '100', start: 12_010n },
  { symbol: 'LTCUSDT', scale: 2, size: '0.1', start: 8_123n },
  { symbol: 'LINKUSDT', scale: 3, size: '1', start: 14_230n },
];
const LEVERAGES = [1, 2, 5, 10, 20, 50, 100];

/** Timing figures for the console (not money): a fixed number of fraction digits. */
const fig = (n: number, digits = 2) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });

/** xorshift32, seeded so that every run measures the same book and marks. */
let state = 0x2545f491;
function rand(n: number): number {
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state % n;
}

const scaleOf = new Map(INSTRUMENTS.map((i) => [i.symbol, i.scale]));
const price = new Map(INSTRUMENTS.map((i) => [i.symbol, i.start]));
const termsOf = (i: (typeof INSTRUMENTS)[number]): LeverTerms => ({
  contractSize: i.size,
  mmr: '0.005',
  feeRate: '0.0005',
  priceScale: i.scale,
  quoteScale: QUOTE_SCALE,
});

/** A holding position within ±5% of the instrument's price, as the `positions` topic sends it. */
function newPosition(id: number): LeverPosition {
  const instrument = INSTRUMENTS[id % INSTRUMENTS.length] as (typeof INSTRUMENTS)[number];
  const entry = (instrument.start * BigInt(9_500 + rand(1_001))) / 10_000n;
  const lots = 1 + rand(50);
  const leverage = LEVERAGES[rand(LEVERAGES.length)] as number;
  const cross = rand(2) === 0;
  const im = initialMargin(BigInt(lots), entry, leverage, termsOf(instrument));
  const added = cross || rand(4) > 0 ? 0n : im / 2n;
  return {
    id,
    order_no: `L${id}`,
    symbol: instrument.symbol,
    direction: rand(2) ? 'long' : 'short',
    type: 'market',
    margin_mode: cross ? 'cross' : 'isolated',
    account_type: rand(10) < 7 ? 'real' : 'simulator',
    status: 1,
    phase: 'holding',
    lots,
    quantity: '0',
    contract_size: instrument.size,
    leverage,
    mmr: '0.005',
    fee_rate: '0.0005',
    limit_price: null,
    entry_price: fromUnits(entry, instrument.scale),
    close_offset_price: null,
    profit_take_price: null,
    stop_loss_price: null,
    initial_margin: fromUnits(im, QUOTE_SCALE),
    additional_margin: fromUnits(added, QUOTE_SCALE),
    amount: null,
    commission: '0',
    open_fee: '0',
    close_fee: null,
    Liquidation_Price: null,
    Liquidation_Time: null,
    floating_profit_or_loss: null,
    unrealized_pnl_percent: null,
    realized_pnl: null,
    realized_pnl_percent: null,
    total_profit_or_loss: null,
    insurance: null,
    close_reason: null,
    cancel_reason: null,
    entry: null,
    exit: null,
    mark: null,
    open_position_time: 0,
    time_to_close_position: null,
    request_id: `r${id}`,
    created_at: 0,
    updated_at: 0,
  };
}

const positions = Array.from({ length: POSITIONS }, (_, id) => newPosition(id));
/** Cross wallets at 1.5× the cross margins of each book: enough to hold, near enough that LPs exist. */
const wallets: Record<LeverAccount, bigint> = { real: 0n, simulator: 0n };
for (const p of positions) {
  if (p.margin_mode === 'cross') wallets[p.account_type] += toUnits(p.initial_margin ?? '0', QUOTE_SCALE) ?? 0n;
}
for (const book of ['real', 'simulator'] as const) wallets[book] = (wallets[book] * 3n) / 2n;

const marksInput = () =>
  INSTRUMENTS.map((i) => ({ symbol: i.symbol, price: fromUnits(price.get(i.symbol) ?? 1n, i.scale) }));
function step(symbol: string): { symbol: string; price: string } {
  const last = price.get(symbol) ?? 1n;
  const move = 1n + (last * BigInt(rand(31))) / 10_000n;
  const next = rand(2) ? last + move : last - move > 0n ? last - move : 1n;
  price.set(symbol, next);
  return { symbol, price: fromUnits(next, scaleOf.get(symbol) ?? 0) };
}

type Row = Pick<
  PositionFigures,
  'id' | 'mark' | 'pnl' | 'roe' | 'marginRatio' | 'liquidationPrice' | 'liquidationDistance'
>;

/** The baseline: every position read from its strings and computed from scratch, cross LPs with the real others. */
function naive(): Row[] {
  const read = positions.map((p) => {
    const scale = scaleOf.get(p.symbol) ?? 0;
    const terms: LeverTerms = {
      contractSize: p.contract_size,
      mmr: p.mmr,
      feeRate: p.fee_rate,
      priceScale: scale,
      quoteScale: QUOTE_SCALE,
    };
    const initial = toUnits(p.initial_margin ?? '0', QUOTE_SCALE) ?? 0n;
    const margin = initial + (toUnits(p.additional_margin, QUOTE_SCALE) ?? 0n);
    const mark = toUnits(fromUnits(price.get(p.symbol) ?? 0n, scale), scale) ?? 0n;
    const units = { side: p.direction, lots: BigInt(p.lots), entry: toUnits(p.entry_price ?? '0', scale) ?? 0n, terms };
    return { p, units, initial, margin, mark };
  });
  // Each book's cross positions at their marks, as crossLiquidationPrice and the account ratio take them.
  const crossOf = (book: LeverAccount) =>
    read
      .filter((r) => r.p.margin_mode === 'cross' && r.p.account_type === book)
      .map((r): CrossPositionAtMark & { id: number } => ({ ...r.units, mark: r.mark, id: r.p.id }));
  const cross = { real: crossOf('real'), simulator: crossOf('simulator') };
  const ratio = (book: LeverAccount): string | null => {
    let tmm: Exact = { units: 0n, scale: 0 };
    let upnl: Exact = { units: 0n, scale: 0 };
    for (const c of cross[book]) {
      tmm = add(tmm, maintenanceMarginExact(c.lots, c.mark, c.terms));
      upnl = add(upnl, unrealisedPnlExact(c, c.mark));
    }
    const terms = { contractSize: '1', mmr: '0', feeRate: '0', priceScale: 0, quoteScale: QUOTE_SCALE };
    return cross[book].length > 0 ? marginRatioText(tmm, wallets[book], upnl, terms) : null;
  };
  const ratios = { real: ratio('real'), simulator: ratio('simulator') };
  return read.map(({ p, units, initial, margin, mark }) => {
    const { terms } = units;
    const upnl = unrealisedPnlExact(units, mark);
    let lp: bigint | null;
    let marginRatio: string | null;
    if (p.margin_mode === 'isolated') {
      lp = isolatedLiquidationPrice({ ...units, margin });
      marginRatio = marginRatioText(maintenanceMarginExact(units.lots, mark, terms), margin, upnl, terms);
    } else {
      const others = cross[p.account_type].filter((c) => c.id !== p.id);
      lp = crossLiquidationPrice(units, wallets[p.account_type], others);
      marginRatio = ratios[p.account_type];
    }
    return {
      id: p.id,
      mark: fromUnits(mark, terms.priceScale),
      pnl: fromUnits(pnlUnits(units, mark), QUOTE_SCALE),
      roe: roeText(upnl, initial, terms),
      marginRatio,
      liquidationPrice: lp === null ? null : fromUnits(lp, terms.priceScale),
      liquidationDistance: liquidationDistanceText(units.side, mark, lp, terms.priceScale),
    };
  });
}

const compute = new PositionsCompute();
compute.setInstruments(
  INSTRUMENTS.map((i) => ({ symbol: i.symbol, price_scale: i.scale })),
  QUOTE_SCALE,
);
compute.setWallets({
  real: fromUnits(wallets.real, QUOTE_SCALE),
  simulator: fromUnits(wallets.simulator, QUOTE_SCALE),
});
compute.setPositions(positions);
compute.applyMarks(marksInput());

let mismatches = 0;
function check(): void {
  const shown = new Map(compute.snapshot().changed.map((f) => [f.id, f]));
  for (const row of naive()) {
    const f = shown.get(row.id);
    const same = f !== undefined && (Object.keys(row) as (keyof Row)[]).every((k) => f[k] === row[k]);
    if (!same) {
      if (mismatches < 5) console.log('MISMATCH', JSON.stringify(row), JSON.stringify(f));
      mismatches++;
    }
  }
}

interface Run {
  compute: number[];
  clone: number[];
  naive: number[];
  changed: number[];
}
/**
 * Times `updates` updates through PositionsCompute, then `updates / NAIVE_EVERY` more through the naive recompute
 * (checked against the worker's figures). Apart, so that the naive run's garbage is not collected on the worker's
 * clock.
 */
function measure(updates: number, next: () => { symbol: string; price: string }[]): Run {
  const run: Run = { compute: [], clone: [], naive: [], changed: [] };
  for (let i = -WARMUP; i < updates; i++) {
    const marks = next();
    let t = performance.now();
    const update: PositionsUpdate = compute.applyMarks(marks);
    const spent = performance.now() - t;
    t = performance.now();
    structuredClone(update);
    const cloned = performance.now() - t;
    if (i < 0) continue;
    run.compute.push(spent);
    run.clone.push(cloned);
    run.changed.push(update.changed.length);
  }
  for (let i = 0; i < Math.max(1, Math.floor(updates / NAIVE_EVERY)); i++) {
    compute.applyMarks(next());
    const t = performance.now();
    naive();
    run.naive.push(performance.now() - t);
    check();
  }
  return run;
}

function percentiles(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
  const mean = times.reduce((s, v) => s + v, 0) / Math.max(1, times.length);
  return { p50: pct(0.5), p99: pct(0.99), mean };
}
const ms = (v: number) => `${fig(v, 3).padStart(9)} ms`;
function report(title: string, run: Run): void {
  const c = percentiles(run.compute);
  const s = percentiles(run.clone);
  const n = percentiles(run.naive);
  console.log(
    `${title}: ${run.compute.length} updates, ${fig(percentiles(run.changed).mean, 0)} rows changed per update`,
  );
  console.log(`  ${'PositionsCompute'.padEnd(22)} p50 ${ms(c.p50)}  p99 ${ms(c.p99)}  mean ${ms(c.mean)}`);
  console.log(`  ${'+ result clone'.padEnd(22)} p50 ${ms(s.p50)}  p99 ${ms(s.p99)}  mean ${ms(s.mean)}`);
  console.log(
    `  ${`naive (${run.naive.length} samples)`.padEnd(22)} p50 ${ms(n.p50)}  p99 ${ms(n.p99)}  mean ${ms(n.mean)}`,
  );
  console.log(
    `  naive / compute p50 ${fig(n.p50 / c.p50, 0)} x; target ≤ ${TARGET_MS} ms median: ${c.p50 <= TARGET_MS ? 'met' : 'MISSED'}`,
  );
}

const started = performance.now();
const one = measure(UPDATES, () => [step(INSTRUMENTS[rand(INSTRUMENTS.length)]!.symbol)]);
const all = measure(ALL_UPDATES, () => INSTRUMENTS.map((i) => step(i.symbol)));
const books = positions.reduce(
  (n, p) => {
    n[`${p.account_type} ${p.margin_mode}`] = (n[`${p.account_type} ${p.margin_mode}`] ?? 0) + 1;
    return n;
  },
  {} as Record<string, number>,
);
console.log(
  `positions worker compute: ${POSITIONS} open positions over ${INSTRUMENTS.length} symbols ` +
    `(${Object.entries(books)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}); run ${fig((performance.now() - started) / 1000, 1)} s`,
);
report('one symbol per update', one);
report('all symbols per update', all);
if (mismatches > 0) {
  console.log(`MISMATCH: ${mismatches} rows differ from the naive recompute`);
  process.exitCode = 1;
}
