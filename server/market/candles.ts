import type { Timeframe } from '../../protocol/market';

/** A candle in integer units: prices in ticks, volume in quantity units, `t` the bucket start (UTC ms). */
export interface Bar {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

const MINUTE = 60_000;
const DAY = 1_440 * MINUTE;
const FIXED: Partial<Record<Timeframe, number>> = {
  '1min': MINUTE,
  '5min': 5 * MINUTE,
  '30min': 30 * MINUTE,
  '60min': 60 * MINUTE,
  '1day': DAY,
};

/** Start of the bucket holding `ts`: fixed sizes from the epoch, weeks from Monday 00:00 UTC, months from the 1st. */
export function bucketStart(timeframe: Timeframe, ts: number): number {
  const size = FIXED[timeframe];
  if (size) return Math.floor(ts / size) * size;
  if (timeframe === '1week') {
    // 1970-01-01 was a Thursday; Monday 1969-12-29 is 3 days earlier.
    const offset = 3 * DAY;
    return Math.floor((ts + offset) / (7 * DAY)) * 7 * DAY - offset;
  }
  const d = new Date(ts);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** End (exclusive) of the bucket that starts at `start`. */
export function bucketEnd(timeframe: Timeframe, start: number): number {
  const size = FIXED[timeframe];
  if (size) return start + size;
  if (timeframe === '1week') return start + 7 * DAY;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/**
 * How many bars each timeframe keeps: enough for the charts, bounded so memory stays flat. The long ones hold at
 * least the 300 candles a chart asks for by default: once full, a series is served without the source's far past
 * (MarketFeed.candles), so it must then have them on its own.
 */
export const DEFAULT_BAR_LIMITS: Record<Timeframe, number> = {
  '1min': 2_880,
  '5min': 2_016,
  '30min': 1_000,
  '60min': 1_000,
  '1day': 500,
  '1week': 520,
  '1mon': 300,
};

export const TIMEFRAME_LIST = Object.keys(DEFAULT_BAR_LIMITS) as Timeframe[];

/** One series of bars of one timeframe; ticks must arrive in time order (older ticks are ignored). */
export class CandleSeries {
  private readonly bars: Bar[] = [];
  /** End of the newest bar's bucket: ticks before it (and not before its start) land in that bar. */
  private end = Number.NEGATIVE_INFINITY;

  constructor(
    readonly timeframe: Timeframe,
    private readonly limit: number,
  ) {}

  /** Adds a trade at `price` for `qty`; returns the bar it landed in, or undefined when it was too old. */
  apply(ts: number, price: number, qty: number): Bar | undefined {
    const last = this.bars[this.bars.length - 1];
    if (last && ts < last.t) return undefined;
    if (last && ts < this.end) {
      if (price > last.h) last.h = price;
      if (price < last.l) last.l = price;
      last.c = price;
      last.v += qty;
      return last;
    }
    const t = bucketStart(this.timeframe, ts);
    this.end = bucketEnd(this.timeframe, t);
    const bar = { t, o: price, h: price, l: price, c: price, v: qty };
    this.bars.push(bar);
    if (this.bars.length > this.limit) this.bars.splice(0, this.bars.length - this.limit);
    return bar;
  }

  /** The newest `limit` bars, oldest first (copies). */
  latest(limit: number): Bar[] {
    return this.bars.slice(Math.max(0, this.bars.length - limit)).map((b) => ({ ...b }));
  }

  get last(): Bar | undefined {
    return this.bars[this.bars.length - 1];
  }

  get size(): number {
    return this.bars.length;
  }

  /** At its limit: from the next bucket on it drops its oldest bar. */
  get full(): boolean {
    return this.bars.length >= this.limit;
  }

  /** Bars with `t >= from`, oldest first (no copies; callers must not change them). */
  since(from: number): readonly Bar[] {
    let lo = 0;
    let hi = this.bars.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.bars[mid]?.t ?? 0) < from) lo = mid + 1;
      else hi = mid;
    }
    return this.bars.slice(lo);
  }
}

/** Every timeframe of one instrument, fed from the same ticks so volumes add up across timeframes. */
export class CandleBook {
  readonly series: Record<Timeframe, CandleSeries>;

  constructor(limits: Partial<Record<Timeframe, number>> = {}) {
    const all = { ...DEFAULT_BAR_LIMITS, ...limits };
    this.series = Object.fromEntries(TIMEFRAME_LIST.map((tf) => [tf, new CandleSeries(tf, all[tf])])) as Record<
      Timeframe,
      CandleSeries
    >;
  }

  apply(ts: number, price: number, qty: number): void {
    for (const tf of TIMEFRAME_LIST) this.series[tf].apply(ts, price, qty);
  }
}
