import { describe, expect, it } from 'vitest';
import { formatValue, parseDecimal, VALUE_SCALE, valueAt } from './valuation';

describe('valuation', () => {
  it('parses decimal strings into digits and scale, and refuses anything else', () => {
    expect(parseDecimal('64250.5')).toEqual({ digits: 642505n, scale: 1 });
    expect(parseDecimal('1')).toEqual({ digits: 1n, scale: 0 });
    expect(parseDecimal('0.00001')).toEqual({ digits: 1n, scale: 5 });
    for (const bad of ['', '-1', '1e5', '1.', '.5', 'NaN', '1,5']) expect(parseDecimal(bad)).toBeNull();
  });

  it('values minor units at a price exactly', () => {
    // 0.5 BTC (8 decimals) at 64250.25 USDT
    expect(formatValue(valueAt(50_000_000, 8, '64250.25'))).toBe('32125.125');
    // 1 satoshi at 0.00001: 10^-13 USDT, not rounded away
    expect(formatValue(valueAt(1, 8, '0.00001'))).toBe('0.0000000000001');
    // 12.345678 USDT (6 decimals) at 1
    expect(formatValue(valueAt(12_345_678, 6, '1'))).toBe('12.345678');
    expect(formatValue(valueAt(0, 8, '3150.00'))).toBe('0');
  });

  it('adds values of different currencies without loss, far beyond 2^53', () => {
    const btc = valueAt(1_000_000_000_000_000, 8, '99999.99'); // 10 million BTC
    const usdt = valueAt(1, 6, '1');
    expect(formatValue(btc + usdt)).toBe('999999900000.000001');
  });

  it('cuts a product finer than VALUE_SCALE (never seen with feed prices) instead of failing', () => {
    const tiny = `0.${'0'.repeat(VALUE_SCALE)}1`;
    expect(formatValue(valueAt(1, 8, tiny))).toBe('0');
  });

  it('formats negative values with a sign', () => {
    expect(formatValue(-valueAt(150, 2, '1'))).toBe('-1.5');
  });
});
