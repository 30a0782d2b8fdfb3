import { describe, expect, it } from 'vitest';
import { bollingerBands, exponentialAverage, macd, movingAverage, relativeStrength } from './indicators';

/** Hand-computed vectors: each expected figure is worked out on paper in the comment beside it. */
describe('indicator adapter', () => {
  it('moving average: the mean of the last closes, nothing before the period is full', () => {
    // (1+2+3)/3, (2+3+4)/3, ...
    expect(movingAverage([1, 2, 3, 4, 5, 6], 3)).toEqual([null, null, 2, 3, 4, 5]);
  });

  it('exponential average: weight 2/(n+1) from the first close, shown from the n-th close', () => {
    // n = 3, weight 1/2: 1, (2+1)/2 = 1.5, (3+1.5)/2 = 2.25, (4+2.25)/2 = 3.125, (5+3.125)/2 = 4.0625
    expect(exponentialAverage([1, 2, 3, 4, 5], 3)).toEqual([null, null, 2.25, 3.125, 4.0625]);
  });

  it("RSI: Wilder's averages of gains and losses", () => {
    // n = 2. Changes +1, +1: gains 1, losses 0 → 100. Then -1: gain (0-1)/2+1 = 0.5, loss (1-0)/2+0 = 0.5 → RS 1
    // → 50. Then +2: gain (2-0.5)/2+0.5 = 1.25, loss (0-0.5)/2+0.5 = 0.25 → RS 5 → 100 - 100/6.
    const rsi = relativeStrength([1, 2, 3, 2, 4], 2);
    expect(rsi.slice(0, 4)).toEqual([null, null, 100, 50]);
    expect(rsi[4]).toBeCloseTo(100 - 100 / 6, 12);
  });

  it('Bollinger bands: mean and two population deviations', () => {
    // 2,4,4,4,5,5,7,9: mean 5, squared deviations 9+1+1+1+0+0+4+16 = 32, /8 = 4, deviation 2 → 5 ± 4.
    const bands = bollingerBands([2, 4, 4, 4, 5, 5, 7, 9], 8, 2);
    expect(bands.slice(0, 7)).toEqual([null, null, null, null, null, null, null]);
    expect(bands[7]).toEqual({ upper: 9, middle: 5, lower: 1 });
  });

  it('MACD: fast less slow EMA, its signal and histogram, once the signal has warmed up', () => {
    // fast n=2 (weight 2/3): 1, 5/3, 23/9, 95/27, 365/81. slow n=3 (weight 1/2): 1, 3/2, 9/4, 25/8, 65/16.
    // MACD from the 3rd close: 11/36, 85/216, 575/1296. Signal n=2 seeded with 11/36: 59/162, 811/1944.
    // Shown from the 4th close, when the signal has seen two values.
    const out = macd([1, 2, 3, 4, 5], 2, 3, 2);
    expect(out.slice(0, 3)).toEqual([null, null, null]);
    const expected = [
      { macd: 85 / 216, signal: 59 / 162, histogram: 19 / 648 },
      { macd: 575 / 1296, signal: 811 / 1944, histogram: 103 / 3888 },
    ];
    for (const [i, want] of expected.entries()) {
      const got = out[3 + i];
      expect(got?.macd).toBeCloseTo(want.macd, 12);
      expect(got?.signal).toBeCloseTo(want.signal, 12);
      expect(got?.histogram).toBeCloseTo(want.histogram, 12);
    }
  });
});
