import { z } from 'zod/mini';
import { candle, PERIODS, quote, trade } from './market';
import type { MarketTopicSpec, TopicParameter } from './socket-surface';

/**
 * The market's public topics as the published documents describe them (the market domain serves them). Nothing in
 * the client imports this, so its summaries cost no bundle weight.
 */

const symbolParameter: TopicParameter = { description: 'An instrument symbol: 1 to 12 of A-Z and 0-9 (BTC, AAPL).' };

/** Public market topics: a snapshot on subscribe, then batched updates numbered per topic. */
export const marketTopics = {
  quotes: {
    address: 'quotes',
    parameters: {},
    summary: 'Every coin quote; updates carry the instruments that changed.',
    data: z.array(quote),
  },
  stocks: {
    address: 'stocks',
    parameters: {},
    summary: 'Every US stock quote; updates carry the instruments that changed.',
    data: z.array(quote),
  },
  kline: {
    address: 'kline:{symbol}:{period}',
    parameters: {
      symbol: symbolParameter,
      period: { description: 'Candle timeframe, or the time-share line.', enum: PERIODS },
    },
    summary: 'Candles of one instrument and period: the latest 300, then the bars that changed.',
    data: z.array(candle),
  },
  trades: {
    address: 'trades:{symbol}',
    parameters: { symbol: symbolParameter },
    summary: 'Recent trades of one instrument: the latest 50, then the new ones, newest first.',
    data: z.array(trade),
  },
} as const satisfies Record<string, MarketTopicSpec>;
