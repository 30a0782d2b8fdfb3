// @vitest-environment node

import { describe, expect, it } from 'vitest';
import type { InstrumentInfo, Quote } from '../../../../protocol/market';
import { flatQuote } from '../../../test-support/quotes';
import { quoteRows } from './rows';

const quote = (symbol: string, last: string, change_pct: string, volume: string): Quote =>
  flatQuote(symbol, last, { change_pct, volume });
const info = (symbol: string, name: string): InstrumentInfo => ({
  id: 1,
  symbol,
  name,
  kind: 'coin',
  quote: 'USDT',
  tick_size: '0.01',
  price_scale: 2,
  qty_scale: 4,
});

const quotes = new Map(
  [
    quote('BTC', '60000.5', '1.20', '10'), // turnover 600,005
    quote('ETH', '3000', '-2.50', '500'), // 1,500,000
    quote('DOGE', '0.1', '9.99', '1000000'), // 100,000
    quote('XRP', '0.5', '1.20', '2'),
  ].map((q) => [q.symbol, q]),
);
const infos = new Map([info('BTC', 'Bitcoin'), info('ETH', 'Ethereum')].map((i) => [i.symbol, i]));

describe('market rows', () => {
  it('sorts by exact decimals, volume as turnover, ties by symbol', () => {
    const order = (key: 'last' | 'change' | 'volume' | 'symbol', dir: 'asc' | 'desc') =>
      quoteRows(quotes, infos, new Set(), { search: '', sort: { key, dir } }).map((r) => r.quote.symbol);
    expect(order('last', 'desc')).toEqual(['BTC', 'ETH', 'XRP', 'DOGE']);
    expect(order('change', 'desc')).toEqual(['DOGE', 'BTC', 'XRP', 'ETH']);
    expect(order('volume', 'desc')).toEqual(['ETH', 'BTC', 'DOGE', 'XRP']);
    expect(order('symbol', 'asc')).toEqual(['BTC', 'DOGE', 'ETH', 'XRP']);
  });

  it('orders exactly where floats could not: values that differ past 17 digits (a float tie would put AAA first)', () => {
    const close = new Map(
      [
        quote('AAA', '9007199254740992', '0.1', '0.10000000000000000001'),
        quote('BBB', '9007199254740993', '0.10000000000000000001', '0.1'),
      ].map((q) => [q.symbol, q]),
    );
    const first = (key: 'last' | 'change' | 'volume') =>
      quoteRows(close, infos, new Set(), { search: '', sort: { key, dir: 'desc' } }).map((r) => r.quote.symbol);
    expect(first('last')).toEqual(['BBB', 'AAA']);
    expect(first('change')).toEqual(['BBB', 'AAA']);
    // Turnover 900719925474099.3 (BBB) against 900719925474099.20009007199254740992 (AAA).
    expect(first('volume')).toEqual(['BBB', 'AAA']);
  });

  it('searches symbol and name, and can keep only favourites', () => {
    const symbols = (search: string, only?: Set<string>) =>
      quoteRows(quotes, infos, new Set(['ETH']), { search, sort: null, ...(only ? { only } : {}) }).map(
        (r) => `${r.quote.symbol}${r.favourite ? '*' : ''}`,
      );
    expect(symbols('bit')).toEqual(['BTC']);
    expect(symbols(' e t h ')).toEqual(['ETH*']);
    expect(symbols('', new Set(['ETH', 'XRP']))).toEqual(['ETH*', 'XRP']);
    expect(symbols('zzz')).toEqual([]);
  });
});
