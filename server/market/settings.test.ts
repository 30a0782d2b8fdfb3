import { describe, expect, it } from 'vitest';
import { DEFAULT_MARKET_SEED, describeMarket, readMarketSettings } from '../main';
import { BINANCE_SPOT_URL } from './live/binance';

describe('market settings from the environment', () => {
  it('reads MARKET_SEED and MARKET_ALWAYS_OPEN with safe defaults', () => {
    expect(readMarketSettings({})).toEqual({ seed: DEFAULT_MARKET_SEED, alwaysOpen: false });
    expect(readMarketSettings({ MARKET_SEED: ' demo ', MARKET_ALWAYS_OPEN: '1' })).toEqual({
      seed: 'demo',
      alwaysOpen: true,
    });
    expect(readMarketSettings({ MARKET_SEED: '', MARKET_ALWAYS_OPEN: '0' })).toEqual({
      seed: DEFAULT_MARKET_SEED,
      alwaysOpen: false,
    });
  });

  it('stays on the simulator unless MARKET_SOURCE=binance; MARKET_WS_URL replaces the exchange URL', () => {
    expect(readMarketSettings({ MARKET_SOURCE: 'simulator' }).live).toBeUndefined();
    expect(readMarketSettings({ MARKET_SOURCE: ' ' }).live).toBeUndefined();
    expect(readMarketSettings({ MARKET_WS_URL: 'ws://127.0.0.1:9000' }).live).toBeUndefined();
    expect(readMarketSettings({ MARKET_SOURCE: 'binance' }).live).toEqual({
      exchange: 'binance',
      url: BINANCE_SPOT_URL,
    });
    expect(readMarketSettings({ MARKET_SOURCE: 'Binance', MARKET_WS_URL: ' ws://127.0.0.1:9000 ' }).live).toEqual({
      exchange: 'binance',
      url: 'ws://127.0.0.1:9000',
    });
  });

  it('refuses an unknown source or a URL that is not a websocket, naming the variable', () => {
    expect(() => readMarketSettings({ MARKET_SOURCE: 'coinbase' })).toThrow(
      'MARKET_SOURCE must be one of simulator, binance, got coinbase',
    );
    for (const url of ['http://127.0.0.1:9000', 'stream.binance.com:9443', 'ws://']) {
      expect(() => readMarketSettings({ MARKET_SOURCE: 'binance', MARKET_WS_URL: url }), url).toThrow(/^MARKET_WS_URL/);
    }
  });

  it('says in the start log where prices come from', () => {
    expect(describeMarket(readMarketSettings({}))).toBe('market: simulator, seed tradewave, stocks in NYSE hours');
    expect(describeMarket(readMarketSettings({ MARKET_SOURCE: 'binance', MARKET_ALWAYS_OPEN: '1' }))).toBe(
      `market: binance live coins from ${BINANCE_SPOT_URL}; stocks and their history from the simulator, seed tradewave, stocks always open`,
    );
  });
});
