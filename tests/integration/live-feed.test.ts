import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import type { Candle, Trade } from '../../protocol/market';
import { createMarketFeed, readMarketSettings } from '../../server/main';
import { MarketFeed } from '../../server/market/feed';
import { formatUnits, instrumentBySymbol } from '../../server/market/instruments';
import { type ExchangeKline, ExchangePriceSource, type ExchangeTicker } from '../../server/market/live/binance';
import { ReplayServer, readRecording } from '../../server/market/live/replay-server';

/**
 * The Binance adapter end to end: a local websocket server replays the recorded stream the project ships, and
 * the feed built on the adapter must show exactly what was recorded, survive a dropped connection and close.
 */

const RECORDING = readRecording(fileURLToPath(new URL('../fixtures/market/binance-trades.jsonl', import.meta.url)));

interface RecordedTrade {
  stream: string;
  data: { s: string; t: number; p: string; q: string; T: number; m: boolean; E: number };
}
const messages = RECORDING.map((line) => JSON.parse(line) as { stream: string; data: { E: number } });
const recordedTrades = messages.filter((m): m is RecordedTrade => m.stream.endsWith('@trade'));
const RECORDING_END = Math.max(...messages.map((m) => m.data.E)) + 1;

/** The recorded pairs and our instruments' scales, written out here rather than taken from the adapter. */
const PAIRS: Record<string, { symbol: string; priceScale: number; qtyScale: number }> = {
  BTCUSDT: { symbol: 'BTC', priceScale: 2, qtyScale: 5 },
  ETHUSDT: { symbol: 'ETH', priceScale: 2, qtyScale: 4 },
  SOLUSDT: { symbol: 'SOL', priceScale: 2, qtyScale: 3 },
  DOGEUSDT: { symbol: 'DOGE', priceScale: 5, qtyScale: 0 },
  USDCUSDT: { symbol: 'USDC', priceScale: 4, qtyScale: 2 },
};

/** "83412.59000000" at scale 2 is "83412.59": the recording's digits cut at the scale, as text. */
const cut = (text: string, scale: number) => text.slice(0, text.indexOf('.') + (scale ? scale + 1 : 0));
const units = (text: string, scale: number) => Number(cut(text, scale).replace('.', ''));

/** What the feed must list for `symbol` (oldest first), straight from the recording. */
function expectedTrades(symbol: string): Trade[] {
  return recordedTrades
    .filter((m) => PAIRS[m.data.s]?.symbol === symbol)
    .map((m, k) => {
      const pair = PAIRS[m.data.s] ?? { priceScale: 0, qtyScale: 0 };
      return {
        id: `${symbol}-${k + 1}`,
        price: cut(m.data.p, pair.priceScale),
        qty: cut(m.data.q, pair.qtyScale),
        side: m.data.m ? 'sell' : 'buy',
        ts: m.data.T,
      };
    });
}

/** One-minute candles of the recorded trades of `symbol`, built here with plain integer sums. */
function expectedCandles(symbol: string): Candle[] {
  const pair = Object.values(PAIRS).find((p) => p.symbol === symbol);
  if (!pair) throw new Error(symbol);
  const bars = new Map<number, { o: number; h: number; l: number; c: number; v: number }>();
  for (const m of recordedTrades.filter((t) => PAIRS[t.data.s]?.symbol === symbol)) {
    const t = m.data.T - (m.data.T % 60_000);
    const price = units(m.data.p, pair.priceScale);
    const qty = units(m.data.q, pair.qtyScale);
    const bar = bars.get(t);
    if (!bar) bars.set(t, { o: price, h: price, l: price, c: price, v: qty });
    else Object.assign(bar, { h: Math.max(bar.h, price), l: Math.min(bar.l, price), c: price, v: bar.v + qty });
  }
  const p = (n: number) => formatUnits(n, pair.priceScale);
  return [...bars].map(([t, b]) => ({
    t,
    o: p(b.o),
    h: p(b.h),
    l: p(b.l),
    c: p(b.c),
    v: formatUnits(b.v, pair.qtyScale),
  }));
}

/**
 * The source's websocket of the moment and its pending reconnect: a test-only look at private fields. The socket's
 * own 'close' event is the last thing the source reacts to after stop(), so the checks below wait for it instead of
 * sleeping; the source's close handler (registered first) has run by then, and it alone schedules a reconnect.
 */
const internals = (source: ExchangePriceSource) =>
  source as unknown as { socket: WebSocket | undefined; retryTimer: NodeJS.Timeout | undefined };

/** Resolves when `socket` closes, or opens (what a socket that stop() failed to abort does first). */
const settled = (socket: WebSocket | undefined) => {
  if (!socket) throw new Error('the source has no socket');
  return new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.once('open', () => resolve());
  });
};

const COINS = ['BTC', 'ETH', 'SOL', 'DOGE', 'USDC'];
const USDC_TRADES = recordedTrades.filter((m) => m.data.s === 'USDCUSDT').length;
/** Every recorded trade is a tick, and each USDCUSDT trade a second one for USDT. */
const EXPECTED_TICKS = recordedTrades.length + USDC_TRADES;

describe('live feed from a replayed Binance stream', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function replay(options: { drops?: number[] } = {}) {
    const server = await ReplayServer.start({ lines: RECORDING, ...options });
    cleanups.push(() => server.close());
    const logs: string[] = [];
    const source = new ExchangePriceSource({
      url: server.url,
      reconnectMinMs: 20,
      reconnectMaxMs: 200,
      logger: { info: (m) => logs.push(`info ${m}`), warn: (m) => logs.push(`warn ${m}`) },
    });
    const feed = new MarketFeed(source, () => RECORDING_END);
    cleanups.push(() => feed.close());
    return { server, source, feed, logs };
  }

  it('the recording is the small one the project ships, with the coins the test expects', () => {
    expect(RECORDING.length).toBeGreaterThan(300);
    expect(RECORDING.join('\n').length).toBeLessThan(100_000);
    expect(COINS.map((s) => expectedTrades(s).length)).toEqual([120, 70, 30, 20, 15]);
  });

  it('shows exactly the recorded trades, quotes and candles, numbered one by one per coin', async () => {
    const { server, source, feed, logs } = await replay();
    const tickers: ExchangeTicker[] = [];
    const klines: ExchangeKline[] = [];
    source.onTicker((t) => tickers.push(t));
    source.onKline((k) => klines.push(k));
    feed.start();
    await vi.waitFor(() => expect(source.stats().ticks).toBe(EXPECTED_TICKS), { timeout: 10_000, interval: 10 });

    // The adapter asked for every mapped pair's trades, ticker and 1-minute klines on one combined stream.
    const streams = server.requests[0]?.split('streams=')[1]?.split('/') ?? [];
    expect(streams).toHaveLength(39);
    expect(streams).toEqual(
      expect.arrayContaining(['btcusdt@trade', 'usdcusdt@trade', 'ethusdt@ticker', 'solusdt@kline_1m']),
    );

    for (const symbol of COINS) {
      expect(feed.trades(symbol, 500).reverse(), symbol).toEqual(expectedTrades(symbol));
      expect(feed.candles(symbol, '1min', 10), symbol).toEqual(expectedCandles(symbol));
    }
    const btc = expectedTrades('BTC');
    expect(btc[0]).toEqual({ id: 'BTC-1', price: '83412.59', qty: '0.00525', side: 'buy', ts: 1_741_953_645_118 });
    expect(feed.quote('BTC')).toMatchObject({ last: '83412.10', seq: 120, ts: 1_741_953_664_959, open: '83412.59' });
    const prices = btc.map((t) => units(t.price, 2));
    expect(feed.quote('BTC')).toMatchObject({
      high: formatUnits(Math.max(...prices), 2),
      low: formatUnits(Math.min(...prices), 2),
      volume: formatUnits(
        btc.reduce((sum, t) => sum + units(t.qty, 5), 0),
        5,
      ),
    });

    // USDT mirrors every USDCUSDT trade: the last, 24261 USDC at 1.0002, is 24265.85 USDT at 0.9998.
    const usdt = feed.trades('USDT', 500);
    expect(usdt).toHaveLength(USDC_TRADES);
    expect(usdt[0]).toEqual({ id: 'USDT-15', price: '0.9998', qty: '24265.85', side: 'sell', ts: 1_741_953_661_446 });
    expect(feed.quote('USDT')).toMatchObject({ last: '0.9998', seq: 15 });

    // The ticker and kline streams arrive too, exact: 19 tickers and 10 klines each for BTC, ETH and SOL.
    expect(tickers.filter((t) => t.symbol === 'BTC')).toHaveLength(19);
    expect(klines.filter((k) => k.symbol === 'ETH')).toHaveLength(10);
    expect(klines.find((k) => k.symbol === 'BTC' && k.closed)).toEqual({
      symbol: 'BTC',
      interval: '1m',
      closed: true,
      bar: { t: 1_741_953_600_000, o: 8_339_001, h: 8_343_210, l: 8_337_555, c: 8_341_169, v: 2_295_777 },
    });
    expect(source.stats()).toMatchObject({ messages: RECORDING.length, ignored: 0, duplicates: 0, connections: 1 });
    expect(logs).toEqual(['info market: binance: connected, 14 coins from 13 pairs']);
  });

  it('reconnects after the connection drops mid-stream and ends with each recorded trade once', async () => {
    const { server, source, feed, logs } = await replay({ drops: [100] });
    feed.start();
    await vi.waitFor(() => expect(server.connections).toBe(2), { timeout: 10_000, interval: 10 });
    await vi.waitFor(() => expect(source.stats().messages).toBe(100 + RECORDING.length), { timeout: 10_000 });

    // The first connection was cut without a close frame after 100 messages; the second replayed from the start.
    expect(server.closeCodes).toEqual([1006]);
    const tradesBeforeDrop = RECORDING.slice(0, 100).filter((line) => line.includes('@trade"')).length;
    expect(tradesBeforeDrop).toBeGreaterThan(0);
    expect(source.stats()).toMatchObject({
      connections: 2,
      ticks: EXPECTED_TICKS,
      duplicates: tradesBeforeDrop,
      ignored: 0,
    });
    for (const symbol of COINS) expect(feed.trades(symbol, 500).reverse(), symbol).toEqual(expectedTrades(symbol));
    expect(feed.quote('BTC')?.seq).toBe(120);
    expect(logs).toHaveLength(3);
    expect(logs[1]).toMatch(/^warn market: binance: connection closed \(code 1006\), reconnecting in \d+ ms$/);
    expect(source.isConnected).toBe(true);
  });

  it('stop() closes the connection normally and does not come back', async () => {
    const { server, source, feed, logs } = await replay();
    feed.start();
    await vi.waitFor(() => expect(source.stats().ticks).toBe(EXPECTED_TICKS), { timeout: 10_000 });
    const closed = settled(internals(source).socket);
    feed.stop();
    expect(feed.isRunning).toBe(false);
    await vi.waitFor(() => expect(server.closeCodes).toEqual([1000]), { timeout: 5_000 });
    expect(server.openConnections).toBe(0);
    expect(source.isConnected).toBe(false);
    // The client saw its close: no reconnect was scheduled (nor logged) on it, so none can come.
    await closed;
    expect(internals(source).retryTimer).toBeUndefined();
    expect(logs.filter((line) => line.includes('reconnecting'))).toEqual([]);
    expect(server.connections).toBe(1);

    // Started again, it connects afresh; the replayed trades are all known, so nothing is counted twice.
    feed.start();
    await vi.waitFor(() => expect(source.stats().connections).toBe(2), { timeout: 5_000 });
    await vi.waitFor(() => expect(source.stats().duplicates).toBe(recordedTrades.length), { timeout: 5_000 });
    expect(source.stats().ticks).toBe(EXPECTED_TICKS);
  });

  it('stop() while still connecting leaves nothing open and schedules nothing', async () => {
    const { server, source, logs } = await replay();
    source.start();
    const ended = settled(internals(source).socket);
    source.stop();
    // Aborted, the socket closes; one stop() had left alone would open first, and the server would hold it (it
    // counts a connection before its answer reaches the client).
    await ended;
    expect(internals(source).retryTimer).toBeUndefined();
    expect(logs).toEqual([]);
    expect(server.openConnections).toBe(0);
    expect(server.connections).toBeLessThanOrEqual(1);
    expect(source.stats().connections).toBe(0);
  });

  it('keeps retrying with backoff while nobody listens', async () => {
    const server = await ReplayServer.start({ lines: [] });
    const url = server.url;
    await server.close();
    const warnings: string[] = [];
    const source = new ExchangePriceSource({
      url,
      reconnectMinMs: 10,
      reconnectMaxMs: 40,
      logger: { info: () => {}, warn: (m) => warnings.push(m) },
    });
    cleanups.push(() => source.stop());
    source.start();
    await vi.waitFor(() => expect(warnings.filter((w) => w.includes('reconnecting in')).length).toBeGreaterThan(3), {
      timeout: 5_000,
    });
    expect(source.stats().connections).toBe(0);
  });

  it('MARKET_SOURCE=binance with MARKET_WS_URL: live coins from their first live trade, stocks simulated', async () => {
    // Date only (timers stay real) at the recording's end, so the 24 h window holds the recorded trades.
    vi.setSystemTime(RECORDING_END);
    cleanups.push(() => vi.useRealTimers());
    const server = await ReplayServer.start({ lines: RECORDING });
    cleanups.push(() => server.close());
    const feed = createMarketFeed(
      readMarketSettings({ MARKET_SOURCE: 'binance', MARKET_WS_URL: server.url, MARKET_ALWAYS_OPEN: '1' }),
    );
    cleanups.push(() => feed.close());
    const symbols = feed.instruments().map((i) => i.symbol);
    expect(symbols).toEqual(expect.arrayContaining([...COINS, 'USDT', 'AAPL', instrumentBySymbol('NVDA')?.symbol]));

    // Before the first live trade: the stocks have their simulated history, the live coins nothing at all.
    expect(feed.quote('AAPL')?.seq).toBeGreaterThan(1_000);
    expect(feed.quote('AAPL')?.ts).toBeLessThan(RECORDING_END);
    expect(feed.candles('AAPL', '1min', 5)).toHaveLength(5);
    for (const symbol of [...COINS, 'USDT']) {
      expect(feed.quote(symbol), symbol).toBeUndefined();
      expect(feed.candles(symbol, '1min', 5), symbol).toEqual([]);
      expect(feed.trades(symbol, 5), symbol).toEqual([]);
    }
    expect(feed.quotes('coin')).toEqual([]);

    feed.start();
    await vi.waitFor(
      () => expect([...COINS, 'USDT'].map((s) => feed.quote(s)?.seq)).toEqual([120, 70, 30, 20, 15, 15]),
      {
        timeout: 10_000,
        interval: 10,
      },
    );
    // Numbered from the live source's first trade (BTC-1), and charts of the recorded trades alone.
    for (const symbol of COINS) {
      expect(feed.trades(symbol, 500).reverse(), symbol).toEqual(expectedTrades(symbol));
      expect(feed.candles(symbol, '1min', 10), symbol).toEqual(expectedCandles(symbol));
    }
    const btc = expectedTrades('BTC');
    const prices = btc.map((t) => units(t.price, 2));
    expect(feed.quote('BTC')).toMatchObject({
      last: '83412.10',
      open: '83412.59',
      high: formatUnits(Math.max(...prices), 2),
      low: formatUnits(Math.min(...prices), 2),
      volume: formatUnits(
        btc.reduce((sum, t) => sum + units(t.qty, 5), 0),
        5,
      ),
      ts: 1_741_953_664_959,
      seq: 120,
    });
    expect(feed.trades('BTC', 1)[0]?.id).toBe('BTC-120');
    // Coins the recording never traded still have no quote.
    expect(feed.quotes('coin').map((q) => q.symbol)).toEqual(symbols.filter((s) => [...COINS, 'USDT'].includes(s)));
    expect(server.connections).toBe(1);
  });
});
