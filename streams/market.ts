import { fetchCandles, type InstrumentKind, pollQuotes, pollStockQuotes } from '../core/api/market';
import type { Period } from '../protocol/market';
import { type CandleStream, createCandleStream } from './candles';
import { receivedSnapshot } from './market-snapshot';
import { createQuoteStream, type QuoteStream } from './quotes';
import { realtime } from './socket';

/**
 * The tab's market streams, created on first use and shared by every view: two pages showing BTC cost one
 * socket topic and one poller. Each stream stops its topic when its last view goes (shareReplay refCount),
 * while the stream object itself stays for the next view. Recent trades are in streams/market-trades.ts: only
 * the chart page lists them.
 */
let coins: QuoteStream | undefined;
let stocks: QuoteStream | undefined;
const candles = new Map<string, CandleStream>();

export function coinQuotes(): QuoteStream {
  if (!coins) {
    coins = createQuoteStream({ source: realtime(), topic: 'quotes', poll: pollQuotes });
    // The page's market snapshot (issue 27) is the stream's first sign of life, as old as its newest price: a view
    // that shows it (streams/snapshot-board.ts) is gated and marked stale as it would be with live prices that old.
    const snapshot = receivedSnapshot();
    if (snapshot) coins.freshness.touch(snapshot.seenAt);
  }
  return coins;
}

export function stockQuotes(): QuoteStream {
  stocks ??= createQuoteStream({ source: realtime(), topic: 'stocks', poll: pollStockQuotes });
  return stocks;
}

export function candleStream(kind: InstrumentKind, symbol: string, period: Period): CandleStream {
  const key = `${symbol}:${period}`;
  let stream = candles.get(key);
  if (!stream) {
    stream = createCandleStream({
      source: realtime(),
      symbol,
      period,
      fetch: () => fetchCandles(kind, symbol, period),
    });
    candles.set(key, stream);
  }
  return stream;
}
