import type { InstrumentKind } from '../../protocol/market';

/**
 * The instruments the feed serves. Prices are integers of ticks (tick = 10^-priceScale), quantities integers
 * of 10^-qtyScale; both turn into exact decimal strings only at the edge (`formatUnits`).
 */
export interface Instrument {
  id: number;
  symbol: string;
  name: string;
  kind: InstrumentKind;
  quote: 'USDT' | 'USD';
  priceScale: number;
  qtyScale: number;
  /** Start price as a decimal string (snapped to the tick). */
  startPrice: string;
  /** Typical relative move per minute (standard deviation of the log return). */
  sigmaPerMinute: number;
  /** Stablecoins mean-revert tightly around 1 instead of walking. */
  stable?: boolean;
  /** Typical quantity of one trade, in units of the instrument. */
  tradeSize: number;
  /** When it trades: around the clock, or NYSE regular hours. */
  hours: 'always' | 'nyse';
}
