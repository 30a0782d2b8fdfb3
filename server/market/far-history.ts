import { MAX_CANDLES, type Timeframe } from '../../protocol/market';
import { type Bar, bucketStart } from './candles';
import { type Instrument, isNyseOpen, parseUnits } from './instruments';
import { gaussian, Sfc32, STABLE_MAX, STABLE_MIN } from './walk';

/**
 * The far past of one simulated instrument before its tick history (simulator.ts backfill), as daily, weekly and
 * monthly bars reaching FAR_MONTHS months back. The tick history covers only the last days, which leaves the long
 * timeframes a handful of candles; walking 25 years in its 15-second steps would take minutes, so the far past takes
 * coarse steps instead: one a trading day for the newest `keep` days (the daily bars a chart can ask for), then one
 * per week, split at the turn of a month, back to the start. Each week and month is folded from the steps inside it,
 * as the candle book folds ticks, so a week's or month's candle is exactly its days' where the days exist. About 2,500
 * steps of a few random numbers each: a few milliseconds per instrument.
 *
 * It walks backwards from the tick history's start: the newest step closes exactly at the instrument's start price,
 * where its walk (walk.ts) starts, so the far past joins the recent one with no jump (the first recent tick is one
 * step of the walk away). Each step opens at the previous one's close. Its high and low are drawn as the extremes of
 * a Brownian bridge between its open and close with the step's variance, so a bar looks like the walk's bars do. The
 * model is floats, like the walk's; every price leaves as a whole number of ticks, every volume as whole quantity
 * units. Deterministic: the same seed, instrument and end give the same bars (its own generator, so the walk's
 * numbers are untouched).
 */

/** How far back the far past reaches: 300 monthly candles, and more weekly ones than anyone can ask for. */
export const FAR_MONTHS = 300;

export type LongTimeframe = '1day' | '1week' | '1mon';
export type FarHistory = Record<LongTimeframe, Bar[]>;

export const isLongTimeframe = (tf: Timeframe): tf is LongTimeframe => tf === '1day' || tf === '1week' || tf === '1mon';

export interface FarHistoryOptions {
  seed: string;
  /** Where the far past ends (exclusive): the tick history's start, ms. */
  until: number;
  /** Stocks trade around the clock (the simulator's demo mode): then they have weekend days too. */
  alwaysOpen: boolean;
  /** Step of the tick history: a far step's volume is about what the trades of the walk's steps would add up to. */
  stepMs: number;
  /** Newest bars kept per timeframe (no request can ask for more than MAX_CANDLES), and the daily steps taken. */
  keep?: number;
}

const MINUTE = 60_000;
const DAY = 1_440 * MINUTE;
const HALF_HOUR = 30 * MINUTE;
/** NYSE regular session, 09:30 to 16:00 New York (instruments.ts isNyseOpen). */
const SESSION_MINUTES = 390;
/** The walk's bound on the log price around the start price (walk.ts): a bounded toy market. */
const LOG_BOUND = 2.3;
/**
 * Pull of the log price towards the start price per trading day (half-life about two years): without it 25 years of
 * steps would spend long stretches pinned at the bound.
 */
const REVERSION = 0.001;
/** Day-to-day persistence and noise of the log volatility: calm and hectic stretches of weeks, as on real charts. */
const VOL_PERSISTENCE = 0.97;
const VOL_NOISE = 0.1;
/** Spread of a stablecoin's close around 1, about the walk's stationary spread. */
const STABLE_SPREAD = 0.0005;
const STABLE_LOW = STABLE_MIN + 0.0005;
const STABLE_HIGH = STABLE_MAX - 0.0005;

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** The far past of `instrument`, oldest first per timeframe, each bar's `t` the start of its UTC bucket. */
export function buildFarHistory(instrument: Instrument, options: FarHistoryOptions): FarHistory {
  const { until } = options;
  const end = new Date(until);
  const from = Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - FAR_MONTHS, 1);
  const rng = Sfc32.fromSeed(`${options.seed}:${instrument.symbol}:far`);
  const scale = 10 ** instrument.priceScale;
  const startUnits = parseUnits(instrument.startPrice, instrument.priceScale);
  // Mean of the walk's trade size (log-normal, sigma 0.8: e^(0.8²/2)), in quantity units.
  const tradeUnits = instrument.tradeSize * 10 ** instrument.qtyScale * Math.exp(0.32);
  // Float maths is the model of a market here, not money (as in walk.ts): Math.round snaps each modelled price to a
  // whole number of ticks, and from then on every price is exact integer units, as the feed serves them.
  const toUnits = (price: number) => Math.max(1, Math.round(price * scale));
  // Minutes of a whole trading day: the volatility's persistence and the price's pull count in these.
  const dayMinutes = instrument.hours === 'always' || options.alwaysOpen ? 1_440 : SESSION_MINUTES;

  const keep = options.keep ?? MAX_CANDLES;
  // Built newest first and reversed at the end: the newest `keep` days, and every step folded into its week and month.
  const days: Bar[] = [];
  const weeks: Bar[] = [];
  const months: Bar[] = [];
  const startLog = Math.log(startUnits / scale);
  // The model's close of the step being built (log price; the price itself for a stablecoin), and in ticks.
  let closeModel = instrument.stable ? startUnits / scale : startLog;
  let close = startUnits;
  let logVol = 0;
  // Newest step first: the day holding `until` (up to it), whole days back, then weeks (within a month) to `from`.
  for (let stepEnd = until; stepEnd > from; ) {
    const last = stepEnd - 1;
    const daily = days.length < keep;
    const stepStart = daily
      ? Math.floor(last / DAY) * DAY
      : Math.max(bucketStart('1week', last), bucketStart('1mon', last), from);
    const minutes = tradingMinutes(instrument, stepStart, stepEnd, options.alwaysOpen);
    stepEnd = stepStart;
    if (minutes <= 0) continue;
    const tradingDays = minutes / dayMinutes;
    let openModel: number;
    let high: number;
    let low: number;
    if (instrument.stable) {
      // The walk reverts to 1 within hours: each close is a fresh draw, the extremes reach further over longer steps.
      openModel = clamp(1 + STABLE_SPREAD * gaussian(rng), STABLE_LOW, STABLE_HIGH);
      const reach = STABLE_SPREAD * Math.sqrt(minutes / 1_440);
      high = clamp(Math.max(openModel, closeModel) + reach * (1 + Math.abs(gaussian(rng))), STABLE_LOW, STABLE_HIGH);
      low = clamp(Math.min(openModel, closeModel) - reach * (1 + Math.abs(gaussian(rng))), STABLE_LOW, STABLE_HIGH);
    } else {
      // An AR(1) per trading day, taken `tradingDays` at once: the same persistence and spread whatever the step.
      const persistence = VOL_PERSISTENCE ** tradingDays;
      const noise = VOL_NOISE * Math.sqrt((1 - persistence ** 2) / (1 - VOL_PERSISTENCE ** 2));
      logVol = clamp(persistence * logVol + noise * gaussian(rng), -1.2, 1.6);
      const sigma = instrument.sigmaPerMinute * Math.exp(logVol) * Math.sqrt(minutes);
      let move = sigma * gaussian(rng);
      // The walk's jumps, about one a day of trading around the clock, a few percent either way: within a day one or
      // none, over a week their sum (near normal).
      const jumps = minutes / 1_440;
      if (jumps > 1) move += 0.02 * Math.sqrt(jumps) * gaussian(rng);
      else if (rng.next() < jumps) move += 0.02 * gaussian(rng);
      const back = startLog + (closeModel - move - startLog) * (1 - REVERSION) ** tradingDays;
      openModel = clamp(back, startLog - LOG_BOUND, startLog + LOG_BOUND);
      // Extremes of a Brownian bridge from open to close with variance sigma²: (a + b ± sqrt((b - a)² - 2σ² ln U)) / 2.
      const gap = (closeModel - openModel) ** 2;
      const up = Math.sqrt(gap - 2 * sigma * sigma * Math.log(1 - rng.next()));
      const down = Math.sqrt(gap - 2 * sigma * sigma * Math.log(1 - rng.next()));
      high = Math.exp((openModel + closeModel + up) / 2);
      low = Math.exp((openModel + closeModel - down) / 2);
    }
    const open = toUnits(instrument.stable ? openModel : Math.exp(openModel));
    const steps = (minutes * MINUTE) / options.stepMs;
    const bar: Bar = {
      t: stepStart,
      o: open,
      h: Math.max(toUnits(high), open, close),
      l: Math.min(toUnits(low), open, close),
      c: close,
      // A modelled volume, snapped to whole quantity units like the walk's trade sizes.
      v: Math.max(1, Math.round(steps * tradeUnits * Math.exp(0.3 * gaussian(rng) - 0.045))),
    };
    if (daily) days.push(bar);
    foldOlder(weeks, '1week', bar);
    foldOlder(months, '1mon', bar);
    closeModel = openModel;
    close = open;
  }
  return {
    '1day': days.reverse(),
    '1week': weeks.slice(0, keep).reverse(),
    '1mon': months.slice(0, keep).reverse(),
  };
}

/**
 * Adds `step` to `bars` (newest first), the span before all they hold: to the oldest bar when it is the same bucket
 * (the step's open becomes the bar's), else as a new bar. So each bar is its steps' first open, extremes, last close
 * and total volume, as the candle book folds ticks.
 */
function foldOlder(bars: Bar[], timeframe: LongTimeframe, step: Bar): void {
  const oldest = bars[bars.length - 1];
  if (oldest && step.t >= oldest.t) {
    oldest.o = step.o;
    if (step.h > oldest.h) oldest.h = step.h;
    if (step.l < oldest.l) oldest.l = step.l;
    oldest.v += step.v;
  } else {
    bars.push({ ...step, t: bucketStart(timeframe, step.t) });
  }
}

/** Minutes `instrument` trades in [from, to): whole UTC days, or part of one. */
function tradingMinutes(instrument: Instrument, from: number, to: number, alwaysOpen: boolean): number {
  if (alwaysOpen || instrument.hours === 'always') return (to - from) / MINUTE;
  if ((to - from) % DAY === 0 && from % DAY === 0) {
    // Each session lies within one UTC day, the same date as in New York (no exchange holidays, as isNyseOpen).
    let minutes = 0;
    for (let day = from; day < to; day += DAY) {
      // Days since the epoch, which was a Thursday: 0 is Sunday and 6 Saturday.
      const weekday = (((Math.floor(day / DAY) + 4) % 7) + 7) % 7;
      if (weekday !== 0 && weekday !== 6) minutes += SESSION_MINUTES;
    }
    return minutes;
  }
  // Part of a day (the one the tick history starts in): the session opens and closes on the half hour.
  let minutes = 0;
  for (let t = from; t < to; t += HALF_HOUR) {
    if (isNyseOpen(t)) minutes += Math.min(HALF_HOUR, to - t) / MINUTE;
  }
  return minutes;
}
