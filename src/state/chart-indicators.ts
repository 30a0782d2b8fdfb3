import { proxy } from 'valtio';
import { readStorage, STORAGE_KEYS, writeStorage } from './storage';

/**
 * The studies the kline chart can draw: overlays on the price pane (moving average, exponential moving average,
 * Bollinger bands) and panes of their own below it (volume, MACD, RSI), in the order the panes stack.
 */
export const CHART_INDICATORS = ['ma', 'ema', 'boll', 'vol', 'macd', 'rsi'] as const;
export type ChartIndicator = (typeof CHART_INDICATORS)[number];

/**
 * The trader's choice of indicators, remembered across visits; none by default (a bare chart is the fastest and
 * what a first-time visitor expects). Apart from the shell's settings: only the kline page reads it, so it travels
 * in that page's chunk.
 */
export const chartIndicators = proxy<{ on: readonly ChartIndicator[] }>({
  on: CHART_INDICATORS.filter((i) => (readStorage(STORAGE_KEYS.chartIndicators) ?? '').split(',').includes(i)),
});

/** Turns one indicator on or off, keeping the others in their stacking order, and remembers the choice. */
export function setChartIndicator(indicator: ChartIndicator, on: boolean): void {
  chartIndicators.on = CHART_INDICATORS.filter((i) => (i === indicator ? on : chartIndicators.on.includes(i)));
  writeStorage(STORAGE_KEYS.chartIndicators, chartIndicators.on.length ? chartIndicators.on.join(',') : null);
}
