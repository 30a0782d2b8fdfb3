import WebSocket, { type RawData } from 'ws';
import type { Bar } from '../candles';
import { INSTRUMENTS, type Instrument } from '../instruments';
import type { PriceSource, Tick, TickListener } from '../simulator';
import { type ExactDecimal, inverseToUnits, parseExactDecimal, productToUnits, truncateToUnits } from './decimals';
import { TickListeners } from './tick-listeners';

/** Binance spot's public market-data endpoint; MARKET_WS_URL replaces it (the tests point it at a local replay). */
export const BINANCE_SPOT_URL = 'wss://stream.binance.com:9443';

/** Our coins as Binance spot pairs against USDT, spelled as the stream names want them (lower case). */
export const BINANCE_PAIRS: Readonly<Record<string, string>> = {
  BTC: 'btcusdt',
  ETH: 'ethusdt',
  USDC: 'usdcusdt',
  SOL: 'solusdt',
  BNB: 'bnbusdt',
  XRP: 'xrpusdt',
  ADA: 'adausdt',
  DOGE: 'dogeusdt',
  TRX: 'trxusdt',
  LTC: 'ltcusdt',
  DOT: 'dotusdt',
  LINK: 'linkusdt',
  AVAX: 'avaxusdt',
};

/**
 * USDT is what every pair above is quoted in, so the exchange has no USDT price of its own. We take it as the
 * inverse of USDCUSDT: with USDC standing for the dollar, 1 / (USDT per USDC) is USDT's price in dollars (the
 * instrument's quote). USDC itself comes straight from USDCUSDT like every other coin, so the two stablecoins
 * mirror each other around 1 and both move with real trades instead of a constant that never ticks.
 */
export const BINANCE_INVERSE_PAIRS: Readonly<Record<string, string>> = { USDT: 'usdcusdt' };

/** Where one instrument's prices come from: a pair, read as it is or inverted. */
export interface PairRoute {
  instrument: Instrument;
  pair: string;
  inverse: boolean;
}

/** The routes for the coins among `instruments` that Binance lists; stocks and unknown coins get none. */
export function binanceRoutes(instruments: readonly Instrument[] = INSTRUMENTS): PairRoute[] {
  return instruments.flatMap((instrument): PairRoute[] => {
    if (instrument.kind !== 'coin') return [];
    const direct = BINANCE_PAIRS[instrument.symbol];
    if (direct) return [{ instrument, pair: direct, inverse: false }];
    const inverse = BINANCE_INVERSE_PAIRS[instrument.symbol];
    return inverse ? [{ instrument, pair: inverse, inverse: true }] : [];
  });
}

/** Streams besides the trades (which are the ticks, always subscribed). */
export type ExtraStream = 'ticker' | 'kline_1m';

/** The combined-stream URL: `<base>/stream?streams=btcusdt@trade/btcusdt@ticker/…`. */
export function combinedStreamUrl(base: string, pairs: readonly string[], extra: readonly ExtraStream[]): string {
  const names = [...new Set(pairs)].flatMap((pair) => [`${pair}@trade`, ...extra.map((s) => `${pair}@${s}`)]);
  return `${base.replace(/\/+$/, '')}/stream?streams=${names.join('/')}`;
}

/** One market-data event as the exchange sent it, numbers still exact decimals. */
export type BinanceEvent =
  | {
      kind: 'trade';
      pair: string;
      tradeId: number;
      /** Trade time (ms). */
      ts: number;
      price: ExactDecimal;
      qty: ExactDecimal;
      /** True when the buyer's order was resting: the taker sold. */
      buyerIsMaker: boolean;
    }
  | {
      kind: 'ticker';
      pair: string;
      ts: number;
      last: ExactDecimal;
      open: ExactDecimal;
      high: ExactDecimal;
      low: ExactDecimal;
      /** Base-asset volume of the rolling 24 hours. */
      volume: ExactDecimal;
    }
  | {
      kind: 'kline';
      pair: string;
      interval: string;
      start: number;
      open: ExactDecimal;
      high: ExactDecimal;
      low: ExactDecimal;
      close: ExactDecimal;
      volume: ExactDecimal;
      closed: boolean;
    };

export type ParsedMessage = { ok: true; event: BinanceEvent } | { ok: false; reason: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;
const fail = (reason: string): ParsedMessage => ({ ok: false, reason });

/** The named fields as exact decimals, or the first field that is not a decimal string. */
function decimals<K extends string>(
  payload: Record<string, unknown>,
  fields: Record<K, string>,
): { values: Record<K, ExactDecimal> } | { bad: string } {
  const values = {} as Record<K, ExactDecimal>;
  for (const [name, field] of Object.entries(fields) as [K, string][]) {
    const value = parseExactDecimal(payload[field]);
    if (!value) return { bad: field };
    values[name] = value;
  }
  return { values };
}

/**
 * One websocket text message: a combined-stream envelope `{stream, data}` or a raw payload. Anything else
 * (subscription replies, unknown events, a field of the wrong shape) comes back as not ok with the reason.
 */
export function parseBinanceMessage(raw: string): ParsedMessage {
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return fail('not JSON');
  }
  if (!isRecord(message)) return fail('not an object');
  const payload = 'data' in message ? message.data : message;
  if (!isRecord(payload)) return fail('no payload');
  if (typeof payload.s !== 'string' || typeof payload.e !== 'string') return fail('no event type or symbol');
  const pair = payload.s.toLowerCase();
  if ('stream' in message && (typeof message.stream !== 'string' || !message.stream.startsWith(`${pair}@`))) {
    return fail('stream and symbol disagree');
  }
  switch (payload.e) {
    case 'trade': {
      const { t, T, m } = payload;
      if (!Number.isSafeInteger(t) || (t as number) < 0 || !isTime(T) || typeof m !== 'boolean') {
        return fail('trade without id, time or side');
      }
      const d = decimals(payload, { price: 'p', qty: 'q' });
      if ('bad' in d) return fail(`trade field ${d.bad} is not a decimal`);
      return { ok: true, event: { kind: 'trade', pair, tradeId: t as number, ts: T, ...d.values, buyerIsMaker: m } };
    }
    case '24hrTicker': {
      if (!isTime(payload.E)) return fail('ticker without event time');
      const d = decimals(payload, { last: 'c', open: 'o', high: 'h', low: 'l', volume: 'v' });
      if ('bad' in d) return fail(`ticker field ${d.bad} is not a decimal`);
      return { ok: true, event: { kind: 'ticker', pair, ts: payload.E, ...d.values } };
    }
    case 'kline': {
      const k = payload.k;
      if (!isRecord(k) || !isTime(k.t) || typeof k.i !== 'string' || typeof k.x !== 'boolean') {
        return fail('kline without start, interval or closed flag');
      }
      const d = decimals(k, { open: 'o', high: 'h', low: 'l', close: 'c', volume: 'v' });
      if ('bad' in d) return fail(`kline field ${d.bad} is not a decimal`);
      return { ok: true, event: { kind: 'kline', pair, interval: k.i, start: k.t, ...d.values, closed: k.x } };
    }
    default:
      return fail(`unhandled event ${payload.e}`);
  }
}

/** A trade of `route`'s pair as a price in ticks and a quantity in units of the instrument; undefined if out of range. */
function tradeUnits(
  route: PairRoute,
  price: ExactDecimal,
  qty: ExactDecimal,
): { price: number; qty: number } | undefined {
  const i = route.instrument;
  // Inverted (USDT from USDCUSDT): a trade of q USDC at p USDT each moved q × p USDT at 1 / p dollars each.
  const units = route.inverse
    ? { price: inverseToUnits(price, i.priceScale), qty: productToUnits(qty, price, i.qtyScale) }
    : { price: truncateToUnits(price, i.priceScale), qty: truncateToUnits(qty, i.qtyScale) };
  // A price below one tick cannot be shown; a quantity below one unit can (the trade's price is still real).
  if (units.price === undefined || units.price < 1 || units.qty === undefined) return undefined;
  return { price: units.price, qty: units.qty };
}

/** Several decimals at one scale, or undefined if any of them is out of range. */
function unitsOf<K extends string>(values: Record<K, ExactDecimal>, scale: number): Record<K, number> | undefined {
  const out = {} as Record<K, number>;
  for (const [name, value] of Object.entries(values) as [K, ExactDecimal][]) {
    const units = truncateToUnits(value, scale);
    if (units === undefined) return undefined;
    out[name] = units;
  }
  return out;
}

/** The exchange's rolling 24-hour statistics of one instrument, in its units. */
export interface ExchangeTicker {
  symbol: string;
  ts: number;
  last: number;
  open: number;
  high: number;
  low: number;
  volume: number;
}

/** One update of the exchange's own candle (every 2 s while it is open, once more when it closes). */
export interface ExchangeKline {
  symbol: string;
  interval: string;
  closed: boolean;
  bar: Bar;
}

/** Where the adapter reports its connection's life; pino's logger fits, and so does `console`. */
export interface MarketLogger {
  info(message: string): void;
  warn(message: string): void;
}

const SILENT: MarketLogger = { info: () => {}, warn: () => {} };

/** Exponential backoff from `minMs` doubling up to `maxMs`, half of it random so many clients spread out. */
export function reconnectDelay(attempt: number, minMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, minMs * 2 ** attempt);
  return ceiling / 2 + (random() * ceiling) / 2;
}

export interface ExchangeSourceOptions {
  /** Base endpoint (`ws:` or `wss:`); the adapter appends `/stream?streams=…`. */
  url?: string;
  /** Candidates; the coins among them that the exchange lists are served. */
  instruments?: readonly Instrument[];
  /** Streams besides trades; both by default. */
  extraStreams?: readonly ExtraStream[];
  logger?: MarketLogger;
  /** First reconnect delay (doubling per failed attempt) and its cap. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** No message (or ping) for this long means the connection is dead; it is cut and replaced. */
  idleMs?: number;
  random?: () => number;
  /**
   * The last recorded seq per symbol (the price record's, read at start): this process numbers its ticks from
   * the next one, so (symbol, seq) stays unique across restarts instead of starting at 1 again.
   */
  startSeqs?: ReadonlyMap<string, number>;
}

/** What the adapter has seen since it was built. */
export interface ExchangeSourceStats {
  messages: number;
  ticks: number;
  tickers: number;
  klines: number;
  /** Trades at or below a pair's newest trade id (a replay after a reconnect, say): dropped. */
  duplicates: number;
  /** Messages that were malformed, out of range or of a pair we do not serve: dropped. */
  ignored: number;
  /** Connections that opened. */
  connections: number;
}

const LOG = 'market: binance';

const text = (data: RawData): string =>
  Buffer.isBuffer(data)
    ? data.toString('utf8')
    : Array.isArray(data)
      ? Buffer.concat(data).toString('utf8')
      : Buffer.from(data).toString('utf8');

/**
 * Live prices from Binance spot: one combined-stream websocket carrying every mapped pair's trades (each one a
 * tick, as the simulator's synthetic trades are) and, by default, its 24-hour ticker and 1-minute klines. No
 * history: it has no `backfill` (the composite source borrows the simulator's). Exact throughout: the
 * exchange's decimal strings become integer ticks and units without a float.
 */
export class ExchangePriceSource implements PriceSource {
  readonly instruments: readonly Instrument[];
  readonly url: string;
  private readonly routes: ReadonlyMap<string, PairRoute[]>;
  private readonly seqs = new Map<string, number>();
  private readonly newestTradeId = new Map<string, number>();
  private readonly listeners = new TickListeners();
  private readonly tickerListeners = new Set<(ticker: ExchangeTicker) => void>();
  private readonly klineListeners = new Set<(kline: ExchangeKline) => void>();
  private readonly counters: ExchangeSourceStats = {
    messages: 0,
    ticks: 0,
    tickers: 0,
    klines: 0,
    duplicates: 0,
    ignored: 0,
    connections: 0,
  };
  private readonly log: MarketLogger;
  private readonly reconnectMinMs: number;
  private readonly reconnectMaxMs: number;
  private readonly idleMs: number;
  private readonly random: () => number;
  private socket: WebSocket | undefined;
  private running = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(options: ExchangeSourceOptions = {}) {
    const routes = binanceRoutes(options.instruments ?? INSTRUMENTS);
    this.instruments = routes.map((r) => r.instrument);
    const byPair = new Map<string, PairRoute[]>();
    for (const route of routes) byPair.set(route.pair, [...(byPair.get(route.pair) ?? []), route]);
    this.routes = byPair;
    this.url = combinedStreamUrl(
      options.url ?? BINANCE_SPOT_URL,
      routes.map((r) => r.pair),
      options.extraStreams ?? ['ticker', 'kline_1m'],
    );
    this.log = options.logger ?? SILENT;
    this.reconnectMinMs = options.reconnectMinMs ?? 1_000;
    this.reconnectMaxMs = options.reconnectMaxMs ?? 60_000;
    this.idleMs = options.idleMs ?? 60_000;
    this.random = options.random ?? Math.random;
    for (const [symbol, seq] of options.startSeqs ?? []) this.seqs.set(symbol, seq);
  }

  subscribe(listener: TickListener, symbol?: string): () => void {
    return this.listeners.add(listener, symbol);
  }

  onTicker(listener: (ticker: ExchangeTicker) => void): () => void {
    this.tickerListeners.add(listener);
    return () => this.tickerListeners.delete(listener);
  }

  onKline(listener: (kline: ExchangeKline) => void): () => void {
    this.klineListeners.add(listener);
    return () => this.klineListeners.delete(listener);
  }

  stats(): ExchangeSourceStats {
    return { ...this.counters };
  }

  get isConnected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Connects; after a drop it reconnects on its own until `stop`. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.attempt = 0;
    this.connect();
  }

  /** Closes the connection with a normal close and cancels any pending reconnect. */
  stop(): void {
    this.running = false;
    clearTimeout(this.retryTimer);
    clearTimeout(this.idleTimer);
    this.retryTimer = undefined;
    const socket = this.socket;
    this.socket = undefined;
    if (!socket) return;
    // Still handshaking: abort (ws reports that as an error, which the handler below now ignores).
    if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
    else if (socket.readyState === WebSocket.OPEN) socket.close(1000, 'stopped');
  }

  /** Handles one text message as if the socket had delivered it. */
  receive(raw: string): void {
    this.counters.messages++;
    const parsed = parseBinanceMessage(raw);
    if (!parsed.ok) {
      this.ignore(parsed.reason);
      return;
    }
    const event = parsed.event;
    const routes = this.routes.get(event.pair);
    if (!routes) this.ignore(`pair ${event.pair} is not served`);
    else if (event.kind === 'trade') this.onTrade(event, routes);
    else if (event.kind === 'ticker') this.onExchangeTicker(event, routes);
    else this.onExchangeKline(event, routes);
  }

  private onTrade(trade: Extract<BinanceEvent, { kind: 'trade' }>, routes: PairRoute[]): void {
    const newest = this.newestTradeId.get(trade.pair);
    if (newest !== undefined && trade.tradeId <= newest) {
      this.counters.duplicates++;
      return;
    }
    // Convert for every instrument of the pair first, so a trade counts for all of them or for none.
    const converted: Array<{ route: PairRoute; price: number; qty: number }> = [];
    for (const route of routes) {
      const units = tradeUnits(route, trade.price, trade.qty);
      if (!units) {
        this.ignore(`trade ${trade.tradeId} of ${trade.pair} out of range`);
        return;
      }
      converted.push({ route, ...units });
    }
    this.newestTradeId.set(trade.pair, trade.tradeId);
    const takerSide = trade.buyerIsMaker ? 'sell' : 'buy';
    for (const { route, price, qty } of converted) {
      const i = route.instrument;
      const seq = (this.seqs.get(i.symbol) ?? 0) + 1;
      this.seqs.set(i.symbol, seq);
      // Selling USDC for USDT is buying USDT: the inverted instrument's side flips.
      const side = route.inverse ? (takerSide === 'buy' ? 'sell' : 'buy') : takerSide;
      this.publish({ symbol: i.symbol, instrumentId: i.id, ts: trade.ts, price, qty, side, seq });
    }
  }

  /** Tickers and klines are for the directly listed instruments (inverting a high/low pair is not worth it). */
  private onExchangeTicker(ticker: Extract<BinanceEvent, { kind: 'ticker' }>, routes: PairRoute[]): void {
    for (const { instrument: i, inverse } of routes) {
      if (inverse) continue;
      const { last, open, high, low } = ticker;
      const prices = unitsOf({ last, open, high, low }, i.priceScale);
      const volume = truncateToUnits(ticker.volume, i.qtyScale);
      if (!prices || volume === undefined) {
        this.ignore(`ticker of ${ticker.pair} out of range`);
        return;
      }
      this.counters.tickers++;
      const out: ExchangeTicker = { symbol: i.symbol, ts: ticker.ts, ...prices, volume };
      for (const listener of this.tickerListeners) listener(out);
    }
  }

  private onExchangeKline(kline: Extract<BinanceEvent, { kind: 'kline' }>, routes: PairRoute[]): void {
    for (const { instrument: i, inverse } of routes) {
      if (inverse) continue;
      const prices = unitsOf({ o: kline.open, h: kline.high, l: kline.low, c: kline.close }, i.priceScale);
      const v = truncateToUnits(kline.volume, i.qtyScale);
      if (!prices || v === undefined) {
        this.ignore(`kline of ${kline.pair} out of range`);
        return;
      }
      this.counters.klines++;
      const out: ExchangeKline = {
        symbol: i.symbol,
        interval: kline.interval,
        closed: kline.closed,
        bar: { t: kline.start, ...prices, v },
      };
      for (const listener of this.klineListeners) listener(out);
    }
  }

  private ignore(reason: string): void {
    this.counters.ignored++;
    // The first one says what is wrong; after that a line per thousand keeps a bad stream from flooding the log.
    if (this.counters.ignored === 1 || this.counters.ignored % 1_000 === 0) {
      this.log.warn(`${LOG}: ignored a message (${reason}); ${this.counters.ignored} so far`);
    }
  }

  private publish(tick: Tick): void {
    this.counters.ticks++;
    this.listeners.publish(tick);
  }

  private connect(): void {
    const socket = new WebSocket(this.url, { handshakeTimeout: 15_000, maxPayload: 1 << 20 });
    this.socket = socket;
    // Events of a socket that has since been replaced or stopped are ignored.
    const current = () => socket === this.socket;
    socket.on('open', () => {
      if (!current()) return;
      this.counters.connections++;
      this.log.info(`${LOG}: connected, ${this.instruments.length} coins from ${this.routes.size} pairs`);
      this.armIdle(socket);
    });
    socket.on('message', (data: RawData) => {
      if (!current()) return;
      // A connection that delivers is a good one: the next drop starts the backoff from the bottom again.
      this.attempt = 0;
      this.armIdle(socket);
      this.receive(text(data));
    });
    socket.on('ping', () => {
      if (current()) this.armIdle(socket);
    });
    socket.on('error', (err: Error) => {
      if (current()) this.log.warn(`${LOG}: ${err.message}`);
    });
    socket.on('close', (code: number) => {
      if (!current()) return;
      this.socket = undefined;
      clearTimeout(this.idleTimer);
      if (this.running) this.scheduleReconnect(code);
    });
  }

  private armIdle(socket: WebSocket): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.log.warn(`${LOG}: nothing received for ${this.idleMs} ms, reconnecting`);
      // No close handshake with a dead peer: cut it; the close handler then schedules the reconnect.
      socket.terminate();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private scheduleReconnect(code: number): void {
    const delay = reconnectDelay(this.attempt, this.reconnectMinMs, this.reconnectMaxMs, this.random);
    this.attempt++;
    this.log.warn(`${LOG}: connection closed (code ${code}), reconnecting in ${Math.floor(delay)} ms`);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.running) this.connect();
    }, delay);
    this.retryTimer.unref();
  }
}
