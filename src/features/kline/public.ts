/**
 * What other features may use of the kline feature (the layer rule `feature-via-public-surface`): the candle chart,
 * for other pages that draw one.
 */
export { CandleChart } from './components/CandleChart';
