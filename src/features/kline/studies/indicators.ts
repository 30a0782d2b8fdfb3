import { BollingerBands, EMA, MACD, RSI, SMA } from 'trading-signals';

/*
 * The indicator math of the kline chart, from trading-signals (MIT, maintained, no dependencies; only the five
 * indicators below are bundled, in the studies' chunk). Inputs are the chart's coordinates: numbers read from the
 * candles' exact strings, like every point the chart draws; no figure shown as text comes from here.
 *
 * Each function takes the closes oldest first and returns one entry per close, null while the indicator has not
 * seen enough closes to be meaningful (its warm-up), so the result lines up with the bars it is drawn under.
 * Cost: every indicator over 1,000 closes takes well under a millisecond on a phone-class core (measured for
 * issue 26), so it runs on the main thread at each redraw rather than in a worker.
 */

export type Line = (number | null)[];

/** Simple moving average: the mean of the last `period` closes. */
export function movingAverage(closes: readonly number[], period: number): Line {
  const sma = new SMA(period);
  return closes.map((c) => sma.add(c));
}

/**
 * Exponential moving average with weight 2 / (period + 1). trading-signals seeds it with the first close; it is
 * shown from the `period`-th close on, when the seed's weight has faded like a trader's chart expects.
 */
export function exponentialAverage(closes: readonly number[], period: number): Line {
  const ema = new EMA(period);
  return closes.map((c) => {
    const value = ema.add(c);
    return ema.isStable ? value : null;
  });
}

export interface Bands {
  upper: number;
  middle: number;
  lower: number;
}

/** Bollinger bands: the `period` moving average and `deviations` population standard deviations either side. */
export function bollingerBands(closes: readonly number[], period: number, deviations: number): (Bands | null)[] {
  const bands = new BollingerBands(period, deviations);
  return closes.map((c) => bands.add(c));
}

export interface Macd {
  macd: number;
  signal: number;
  histogram: number;
}

/** MACD: fast EMA less slow EMA, its signal EMA, and the difference; shown once the signal line has warmed up. */
export function macd(closes: readonly number[], fast: number, slow: number, signal: number): (Macd | null)[] {
  const study = new MACD(new EMA(fast), new EMA(slow), new EMA(signal));
  return closes.map((c) => {
    const value = study.add(c);
    return value && study.signal.isStable ? value : null;
  });
}

/** Relative strength index with Wilder's smoothing, 0 to 100 (100 when the period had no loss). */
export function relativeStrength(closes: readonly number[], period: number): Line {
  const rsi = new RSI(period);
  return closes.map((c) => rsi.add(c));
}
