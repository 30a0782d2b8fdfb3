import type { Quote } from '../../protocol/market';

/**
 * A quote whose open, high and low are its last price, with the given fields over the defaults: the one shape the
 * client's market tests (rows, cells, boards, the ticker's hook) build their quotes from.
 */
export function flatQuote(symbol: string, last: string, fields: Partial<Quote> = {}): Quote {
  return {
    symbol,
    id: 1,
    last,
    open: last,
    high: last,
    low: last,
    change_pct: '0',
    volume: '1',
    ts: 1,
    seq: 1,
    ...fields,
  };
}
