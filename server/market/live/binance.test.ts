import { describe, expect, it } from 'vitest';
import { INSTRUMENTS, instrumentBySymbol } from '../instruments';
import type { Tick } from '../simulator';
import {
  BINANCE_SPOT_URL,
  binanceRoutes,
  combinedStreamUrl,
  type ExchangeKline,
  ExchangePriceSource,
  type ExchangeTicker,
  parseBinanceMessage,
  reconnectDelay,
} from './binance';

const trade = (symbol: string, fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    stream: `${symbol.toLowerCase()}@trade`,
    data: {
      e: 'trade',
      E: 1_741_953_645_120,
      s: symbol,
      t: 4_712_345_679,
      p: '83412.59000000',
      q: '0.00525000',
      T: 1_741_953_645_118,
      m: false,
      M: true,
      ...fields,
    },
  });

function collect(source: ExchangePriceSource, symbol?: string): Tick[] {
  const ticks: Tick[] = [];
  source.subscribe((tick) => ticks.push(tick), symbol);
  return ticks;
}

describe('Binance symbols', () => {
  it('maps every coin but USDT to its USDT pair, USDT to the inverse of USDCUSDT, and no stock', () => {
    const routes = binanceRoutes(INSTRUMENTS);
    const bySymbol = Object.fromEntries(routes.map((r) => [r.instrument.symbol, r]));
    expect(bySymbol.BTC).toMatchObject({ pair: 'btcusdt', inverse: false });
    expect(bySymbol.ETH).toMatchObject({ pair: 'ethusdt', inverse: false });
    expect(bySymbol.DOGE).toMatchObject({ pair: 'dogeusdt', inverse: false });
    expect(bySymbol.USDC).toMatchObject({ pair: 'usdcusdt', inverse: false });
    expect(bySymbol.USDT).toMatchObject({ pair: 'usdcusdt', inverse: true });
    const coins = INSTRUMENTS.filter((i) => i.kind === 'coin').map((i) => i.symbol);
    expect(routes.map((r) => r.instrument.symbol)).toEqual(coins);
    expect(routes.some((r) => r.instrument.kind === 'stock')).toBe(false);
  });

  it('subscribes each pair once, lower case, on the combined-stream path', () => {
    expect(combinedStreamUrl('ws://127.0.0.1:9000/', ['btcusdt', 'usdcusdt', 'usdcusdt'], ['ticker'])).toBe(
      'ws://127.0.0.1:9000/stream?streams=btcusdt@trade/btcusdt@ticker/usdcusdt@trade/usdcusdt@ticker',
    );
    const source = new ExchangePriceSource();
    expect(
      source.url.startsWith(`${BINANCE_SPOT_URL}/stream?streams=btcusdt@trade/btcusdt@ticker/btcusdt@kline_1m/`),
    ).toBe(true);
    // 13 pairs (USDC and USDT share one), three streams each.
    expect(source.url.split('=')[1]?.split('/')).toHaveLength(39);
    expect(source.instruments.map((i) => i.symbol)).not.toContain('AAPL');
  });
});

describe('Binance messages', () => {
  it('reads a combined-stream trade exactly', () => {
    const parsed = parseBinanceMessage(trade('BTCUSDT'));
    expect(parsed).toEqual({
      ok: true,
      event: {
        kind: 'trade',
        pair: 'btcusdt',
        tradeId: 4_712_345_679,
        ts: 1_741_953_645_118,
        price: { digits: 8_341_259_000_000n, decimals: 8 },
        qty: { digits: 525_000n, decimals: 8 },
        buyerIsMaker: false,
      },
    });
  });

  it('reads a raw payload without the envelope', () => {
    const raw = JSON.stringify({ e: 'trade', s: 'ETHUSDT', t: 1, p: '1.00', q: '2', T: 5, m: true });
    expect(parseBinanceMessage(raw)).toMatchObject({ ok: true, event: { kind: 'trade', pair: 'ethusdt' } });
  });

  it('says why a message is not a usable event', () => {
    const cases: Array<[string, string]> = [
      ['{', 'not JSON'],
      ['[1,2]', 'not an object'],
      ['{"result":null,"id":1}', 'no event type or symbol'],
      [trade('BTCUSDT', { p: 83412.59 }), 'trade field p is not a decimal'],
      [trade('BTCUSDT', { q: '-1' }), 'trade field q is not a decimal'],
      [trade('BTCUSDT', { t: -1 }), 'trade without id, time or side'],
      [trade('BTCUSDT', { m: 'false' }), 'trade without id, time or side'],
      [trade('BTCUSDT', { T: '1741953645118' }), 'trade without id, time or side'],
      [
        JSON.stringify({ stream: 'ethusdt@trade', data: JSON.parse(trade('BTCUSDT')).data }),
        'stream and symbol disagree',
      ],
      [
        JSON.stringify({ stream: 'btcusdt@depth', data: { e: 'depthUpdate', E: 1, s: 'BTCUSDT' } }),
        'unhandled event depthUpdate',
      ],
      [
        JSON.stringify({ e: 'kline', E: 1, s: 'BTCUSDT', k: { t: 1, i: '1m' } }),
        'kline without start, interval or closed flag',
      ],
      [JSON.stringify({ e: '24hrTicker', s: 'BTCUSDT', c: '1' }), 'ticker without event time'],
    ];
    for (const [raw, reason] of cases) expect(parseBinanceMessage(raw), raw).toEqual({ ok: false, reason });
  });
});

describe('ExchangePriceSource ticks', () => {
  it('turns trades into ticks: units at the instrument scale, side from the maker flag, trade time, seq per coin', () => {
    const source = new ExchangePriceSource();
    const ticks = collect(source);
    const btcOnly = collect(source, 'BTC');
    source.receive(trade('BTCUSDT'));
    source.receive(
      trade('BTCUSDT', { t: 4_712_345_680, p: '83412.60000000', q: '1.23456789', T: 1_741_953_645_200, m: true }),
    );
    source.receive(trade('ETHUSDT', { t: 77, p: '1912.34000000', q: '0.05120000', T: 1_741_953_645_300 }));
    const btc = instrumentBySymbol('BTC');
    expect(ticks).toEqual([
      { symbol: 'BTC', instrumentId: btc?.id, ts: 1_741_953_645_118, price: 8_341_259, qty: 525, side: 'buy', seq: 1 },
      // 1.23456789 BTC truncated to the 0.00001 unit.
      {
        symbol: 'BTC',
        instrumentId: btc?.id,
        ts: 1_741_953_645_200,
        price: 8_341_260,
        qty: 123_456,
        side: 'sell',
        seq: 2,
      },
      { symbol: 'ETH', instrumentId: 2, ts: 1_741_953_645_300, price: 191_234, qty: 512, side: 'buy', seq: 1 },
    ]);
    expect(btcOnly.map((t) => t.seq)).toEqual([1, 2]);
    expect(source.stats()).toMatchObject({ messages: 3, ticks: 3, ignored: 0, duplicates: 0 });
  });

  it('gives USDC and its mirror USDT one tick each per USDCUSDT trade', () => {
    const source = new ExchangePriceSource();
    const ticks = collect(source);
    source.receive(trade('USDCUSDT', { t: 10, p: '1.00010000', q: '1532.00000000', m: true }));
    expect(ticks).toEqual([
      // 1 / 1.0001 = 0.99990001 -> 0.9999; 1532 × 1.0001 = 1532.1532 USDT -> 1532.15; selling USDC is buying USDT.
      { symbol: 'USDT', instrumentId: 3, ts: 1_741_953_645_118, price: 9_999, qty: 153_215, side: 'buy', seq: 1 },
      { symbol: 'USDC', instrumentId: 4, ts: 1_741_953_645_118, price: 10_001, qty: 153_200, side: 'sell', seq: 1 },
    ]);
  });

  it('drops repeated or older trade ids of a pair (a replay after reconnecting) without counting them as ticks', () => {
    const source = new ExchangePriceSource();
    const ticks = collect(source);
    source.receive(trade('BTCUSDT', { t: 5 }));
    source.receive(trade('BTCUSDT', { t: 5 }));
    source.receive(trade('BTCUSDT', { t: 4 }));
    source.receive(trade('ETHUSDT', { t: 4 }));
    source.receive(trade('BTCUSDT', { t: 6 }));
    expect(ticks.map((t) => `${t.symbol}${t.seq}`)).toEqual(['BTC1', 'ETH1', 'BTC2']);
    expect(source.stats()).toMatchObject({ messages: 5, ticks: 3, duplicates: 2, ignored: 0 });
  });

  it('numbers ticks above the recorded seqs it is given, so (symbol, seq) stays unique across restarts', () => {
    const source = new ExchangePriceSource({ startSeqs: new Map([['BTC', 41]]) });
    const ticks = collect(source);
    source.receive(trade('BTCUSDT', { t: 1 }));
    source.receive(trade('ETHUSDT', { t: 1 }));
    source.receive(trade('BTCUSDT', { t: 2 }));
    expect(ticks.map((t) => `${t.symbol}${t.seq}`)).toEqual(['BTC42', 'ETH1', 'BTC43']);
  });

  it('ignores and counts malformed, out-of-range and unserved messages, and logs the first', () => {
    const warnings: string[] = [];
    const source = new ExchangePriceSource({ logger: { info: () => {}, warn: (m) => warnings.push(m) } });
    const ticks = collect(source);
    source.receive('not json');
    source.receive(trade('BTCUSDT', { p: '1e5' }));
    source.receive(trade('BTCUSDT', { p: '0.00100000' })); // below one 0.01 tick
    source.receive(trade('BTCUSDT', { p: '99999999999999999.00' })); // beyond a safe integer of ticks
    source.receive(trade('PEPEUSDT'));
    // The out-of-range trades did not advance the pair's newest id: the same id, valid now, counts.
    source.receive(trade('BTCUSDT'));
    expect(ticks).toHaveLength(1);
    expect(ticks[0]).toMatchObject({ price: 8_341_259, seq: 1 });
    expect(source.stats()).toMatchObject({ messages: 6, ticks: 1, ignored: 5, duplicates: 0 });
    expect(warnings).toEqual(['market: binance: ignored a message (not JSON); 1 so far']);
  });

  it('reports the exchange ticker and klines in instrument units', () => {
    const source = new ExchangePriceSource();
    const tickers: ExchangeTicker[] = [];
    const klines: ExchangeKline[] = [];
    source.onTicker((t) => tickers.push(t));
    source.onKline((k) => klines.push(k));
    source.receive(
      JSON.stringify({
        stream: 'ethusdt@ticker',
        data: { e: '24hrTicker', E: 1_000, s: 'ETHUSDT', c: '1912.36000000', o: '1938.77000000', h: '1955.12000000' },
      }),
    );
    expect(source.stats().ignored).toBe(1);
    source.receive(
      JSON.stringify({
        stream: 'ethusdt@ticker',
        data: {
          e: '24hrTicker',
          E: 1_000,
          s: 'ETHUSDT',
          c: '1912.36000000',
          o: '1938.77000000',
          h: '1955.12000000',
          l: '1884.20000000',
          v: '345681.85169999',
        },
      }),
    );
    source.receive(
      JSON.stringify({
        stream: 'usdcusdt@kline_1m',
        data: {
          e: 'kline',
          E: 2_000,
          s: 'USDCUSDT',
          k: { t: 60_000, i: '1m', o: '1.0001', h: '1.0002', l: '1.0000', c: '1.0001', v: '99.5', x: true },
        },
      }),
    );
    expect(tickers).toEqual([
      { symbol: 'ETH', ts: 1_000, last: 191_236, open: 193_877, high: 195_512, low: 188_420, volume: 3_456_818_516 },
    ]);
    // USDT mirrors USDCUSDT only for trades; the kline is USDC's alone.
    expect(klines).toEqual([
      {
        symbol: 'USDC',
        interval: '1m',
        closed: true,
        bar: { t: 60_000, o: 10_001, h: 10_002, l: 10_000, c: 10_001, v: 9_950 },
      },
    ]);
    expect(source.stats()).toMatchObject({ tickers: 1, klines: 1, ticks: 0 });
  });
});

describe('reconnect backoff', () => {
  it('doubles from the minimum up to the cap, with half of each delay random', () => {
    const low = () => 0;
    const high = () => 0.999_999;
    expect(reconnectDelay(0, 1_000, 60_000, low)).toBe(500);
    expect(reconnectDelay(0, 1_000, 60_000, high)).toBeCloseTo(1_000, 0);
    expect(reconnectDelay(3, 1_000, 60_000, low)).toBe(4_000);
    expect(reconnectDelay(20, 1_000, 60_000, low)).toBe(30_000);
    expect(reconnectDelay(20, 1_000, 60_000, high)).toBeLessThan(60_000);
    const spread = new Set([0.1, 0.5, 0.9].map((r) => reconnectDelay(2, 1_000, 60_000, () => r)));
    expect(spread.size).toBe(3);
  });
});
