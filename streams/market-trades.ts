import { realtime } from './socket';
import { createTradeStream, type TradeStream } from './trades';

/**
 * The tab's recent-trade streams, one per instrument, created on first use and shared by every view, as the quote
 * and candle streams are (streams/market.ts). Apart from them because only the chart page lists trades: the home
 * list and the trading tabs load none of it.
 */
const trades = new Map<string, TradeStream>();

export function tradeStream(symbol: string): TradeStream {
  let stream = trades.get(symbol);
  if (!stream) {
    stream = createTradeStream(realtime(), symbol);
    trades.set(symbol, stream);
  }
  return stream;
}
