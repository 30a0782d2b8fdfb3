import type { ChartIndicator } from '../../../state/chart-indicators';

/** Periods a trader knows from other apps: MA 7/25, EMA 12/26, BOLL 20 with two deviations, MACD 12/26/9, RSI 14. */
export const STUDY = {
  ma: [7, 25],
  ema: [12, 26],
  boll: { period: 20, deviations: 2 },
  macd: { fast: 12, slow: 26, signal: 9 },
  rsi: 14,
} as const;

/**
 * Each study's name as charting apps write it in every language (an abbreviation and its periods, like a ticker
 * symbol, so not translated): what the indicator menu lists and the chart's axis labels start with.
 */
export const STUDY_NAMES: Readonly<Record<ChartIndicator, string>> = {
  ma: `MA ${STUDY.ma.join(', ')}`,
  ema: `EMA ${STUDY.ema.join(', ')}`,
  boll: `BOLL ${STUDY.boll.period}, ${STUDY.boll.deviations}`,
  vol: 'VOL',
  macd: `MACD ${STUDY.macd.fast}, ${STUDY.macd.slow}, ${STUDY.macd.signal}`,
  rsi: `RSI ${STUDY.rsi}`,
};
