import { z } from 'zod/mini';
import { call, none } from './call-spec';

/**
 * Market data on the wire (SPEC 7 market calls, SPEC 9 timeframes). Prices and volumes are exact decimal
 * strings (never floats); times are server milliseconds.
 */

/** Candle timeframes of SPEC 9 plus the time-share line (1-minute closes). */
export const TIMEFRAMES = ['1min', '5min', '30min', '60min', '1day', '1week', '1mon'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];
export const PERIODS = [...TIMEFRAMES, 'timeshare'] as const;
export type Period = (typeof PERIODS)[number];

/** An exact, non-negative decimal string such as '64123.45'. */
export const decimalString = z.string().check(z.regex(/^\d+(\.\d+)?$/));
/** A signed decimal string such as '-1.25'. */
export const signedDecimalString = z.string().check(z.regex(/^-?\d+(\.\d+)?$/));

export const SYMBOL_RE = /^[A-Z0-9]{1,12}$/;
export const symbolField = z
  .string({ error: 'invalidInput' })
  .check(z.trim(), z.toUpperCase(), z.regex(SYMBOL_RE, { error: 'invalidInput' }));

export const instrumentKind = z.enum(['coin', 'stock']);
export type InstrumentKind = z.infer<typeof instrumentKind>;

export const instrumentInfo = z.object({
  id: z.number().check(z.int(), z.positive()),
  symbol: z.string(),
  name: z.string(),
  kind: instrumentKind,
  /** What the price is quoted in: USDT for coins, USD for stablecoins and stocks. */
  quote: z.string(),
  tick_size: decimalString,
  /** Decimals of a price (the tick size's scale). */
  price_scale: z.number().check(z.int(), z.gte(0)),
  /** Decimals of a quantity or volume. */
  qty_scale: z.number().check(z.int(), z.gte(0)),
});
export type InstrumentInfo = z.infer<typeof instrumentInfo>;

export const quote = z.object({
  symbol: z.string(),
  id: z.number().check(z.int(), z.positive()),
  last: decimalString,
  /** 24 h window: first price, extremes, change of last against open in percent, traded volume. */
  open: decimalString,
  high: decimalString,
  low: decimalString,
  change_pct: signedDecimalString,
  volume: decimalString,
  /** Server time of the last price. */
  ts: z.number().check(z.int()),
  /** Per-instrument tick sequence of the last price. */
  seq: z.number().check(z.int(), z.gte(0)),
});
export type Quote = z.infer<typeof quote>;

export const candle = z.object({
  /** Bucket start, server ms. */
  t: z.number().check(z.int()),
  o: decimalString,
  h: decimalString,
  l: decimalString,
  c: decimalString,
  v: decimalString,
});
export type Candle = z.infer<typeof candle>;

export const tradeSide = z.enum(['buy', 'sell']);
export const trade = z.object({
  id: z.string(),
  price: decimalString,
  qty: decimalString,
  side: tradeSide,
  ts: z.number().check(z.int()),
});
export type Trade = z.infer<typeof trade>;

const limitField = (max: number) =>
  z.optional(
    z.pipe(
      z.pipe(
        z.string({ error: 'invalidInput' }).check(z.regex(/^\d{1,5}$/, { error: 'invalidInput' })),
        z.transform(Number),
      ),
      z.number().check(z.int(), z.gte(1, { error: 'invalidInput' }), z.lte(max, { error: 'invalidInput' })),
    ),
  );

export const MAX_CANDLES = 1000;
export const MAX_TRADES = 100;

export const klineRequest = z.object({
  symbol: symbolField,
  period: z._default(z.enum(PERIODS, { error: 'invalidInput' }), '1min'),
  limit: limitField(MAX_CANDLES),
});
export const dealRequest = z.object({ symbol: symbolField, limit: limitField(MAX_TRADES) });
export const symbolRequest = z.object({ symbol: symbolField });
/** coin/list: coins by default (SPEC's call); `stock` or `all` for the US stocks too (the quote views need their scales). */
export const instrumentsRequest = z.object({
  kind: z._default(z.enum(['coin', 'stock', 'all'], { error: 'invalidInput' }), 'coin'),
});
export const favouritesRequest = z.object({
  action: z.optional(z.enum(['add', 'remove'], { error: 'invalidInput' })),
  symbol: z.optional(symbolField),
});

export const quotesResponse = z.array(quote);
export const candlesResponse = z.object({ symbol: z.string(), period: z.enum(PERIODS), candles: z.array(candle) });
export const tradesResponse = z.object({ symbol: z.string(), trades: z.array(trade) });
export const instrumentsResponse = z.array(instrumentInfo);
export const favouritesResponse = z.object({ symbols: z.array(z.string()), quotes: z.array(quote) });

/** Socket topics: `quotes`, `stocks`, `kline:<SYMBOL>:<period>`, `trades:<SYMBOL>`. */
export const MARKET_EVENT = 'market' as const;
export const SUBSCRIBE_EVENT = 'subscribe' as const;
export const UNSUBSCRIBE_EVENT = 'unsubscribe' as const;

export type MarketTopic =
  | { kind: 'quotes' }
  | { kind: 'stocks' }
  | { kind: 'kline'; symbol: string; period: Period }
  | { kind: 'trades'; symbol: string };

export function parseTopic(topic: unknown): MarketTopic | null {
  if (typeof topic !== 'string' || topic.length > 64) return null;
  if (topic === 'quotes' || topic === 'stocks') return { kind: topic };
  const parts = topic.split(':');
  const symbol = parts[1];
  if (!symbol || !SYMBOL_RE.test(symbol)) return null;
  if (parts[0] === 'kline' && parts.length === 3) {
    const period = PERIODS.find((p) => p === parts[2]);
    return period ? { kind: 'kline', symbol, period } : null;
  }
  if (parts[0] === 'trades' && parts.length === 2) return { kind: 'trades', symbol };
  return null;
}

/**
 * Every market message: a snapshot right after subscribe, then updates. `seq` grows by exactly 1 per message
 * of a topic (the snapshot carries the current value), so a client that sees a jump has missed one and resyncs.
 */
export const marketMessage = z.object({
  topic: z.string(),
  kind: z.enum(['snapshot', 'update']),
  seq: z.number().check(z.int(), z.gte(0)),
  ts: z.number().check(z.int()),
  data: z.unknown(),
});
export type MarketMessage = z.infer<typeof marketMessage>;

/** The market calls (its domain names them in its contract; server/domains/compose.ts joins every table). */
export const marketCalls = {
  'currency/quotation_new': call('GET', false, none, quotesResponse),
  'currency/new_timeshar': call('GET', false, klineRequest, candlesResponse),
  'currency/deal': call('GET', false, dealRequest, tradesResponse),
  'currency/user_currency_list': call('GET', true, favouritesRequest, favouritesResponse),
  'coin/list': call('GET', false, instrumentsRequest, instrumentsResponse),
  'usstock/quotation': call('GET', false, none, quotesResponse),
  'usstock/kline': call('GET', false, klineRequest, candlesResponse),
  'usstock/getNewPrice': call('POST', false, symbolRequest, quote),
} as const;
