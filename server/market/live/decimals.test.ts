import { describe, expect, it } from 'vitest';
import { decimalToUnits, inverseToUnits, parseExactDecimal, productToUnits, truncateToUnits } from './decimals';

const exact = (text: string) => {
  const value = parseExactDecimal(text);
  if (!value) throw new Error(`not a decimal: ${text}`);
  return value;
};

describe('exchange decimals to integer units', () => {
  it('reads the exchange 8-decimal strings exactly at the instrument scale', () => {
    expect(decimalToUnits('83412.57000000', 2)).toBe(8_341_257);
    expect(decimalToUnits('0.00123000', 5)).toBe(123);
    expect(decimalToUnits('0.17012000', 5)).toBe(17_012);
    expect(decimalToUnits('1532.00000000', 0)).toBe(1_532);
    expect(decimalToUnits('7', 3)).toBe(7_000);
    expect(decimalToUnits('0.5', 4)).toBe(5_000);
    expect(decimalToUnits('0', 2)).toBe(0);
  });

  it('truncates digits beyond the scale, never rounding up', () => {
    expect(decimalToUnits('0.12345999', 5)).toBe(12_345);
    expect(decimalToUnits('64250.129', 2)).toBe(6_425_012);
    expect(decimalToUnits('0.00000999', 5)).toBe(0);
    expect(decimalToUnits('19.99', 0)).toBe(19);
  });

  it('keeps 0.1 + 0.2 style sums exact: no float is involved', () => {
    const a = decimalToUnits('0.10000000', 8) ?? Number.NaN;
    const b = decimalToUnits('0.20000000', 8) ?? Number.NaN;
    expect(a + b).toBe(decimalToUnits('0.30000000', 8));
  });

  it('accepts values up to the largest safe integer of units and refuses what lies beyond', () => {
    expect(decimalToUnits('90071992547409.91', 2)).toBe(Number.MAX_SAFE_INTEGER);
    expect(decimalToUnits('90071992547409.92', 2)).toBeUndefined();
    expect(decimalToUnits('99999999999999999999.00000000', 2)).toBeUndefined();
    // Huge but truncated into range: 9007199254740991 units at scale 0.
    expect(decimalToUnits('9007199254740991.999', 0)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses anything that is not plain digits with an optional fraction', () => {
    for (const bad of [
      '',
      ' 1',
      '1 ',
      '-1',
      '+1',
      '1e5',
      '1E-2',
      '.5',
      '5.',
      '1.2.3',
      '0x10',
      'NaN',
      'Infinity',
      '１',
    ]) {
      expect(parseExactDecimal(bad), bad).toBeUndefined();
      expect(decimalToUnits(bad, 2), bad).toBeUndefined();
    }
    for (const bad of [1.5, 2, null, undefined, true, {}, ['1']]) {
      expect(parseExactDecimal(bad), String(bad)).toBeUndefined();
    }
    // Overlong texts are refused before any arithmetic.
    expect(parseExactDecimal(`1.${'0'.repeat(60)}`)).toBeUndefined();
  });

  it('keeps exactly what was written', () => {
    expect(parseExactDecimal('12.50')).toEqual({ digits: 1250n, decimals: 2 });
    expect(parseExactDecimal('007')).toEqual({ digits: 7n, decimals: 0 });
    expect(truncateToUnits(exact('12.50'), 1)).toBe(125);
  });

  it('inverts a price at a scale, truncating', () => {
    // 1 / 1.0001 = 0.99990001 -> 0.9999
    expect(inverseToUnits(exact('1.00010000'), 4)).toBe(9_999);
    // 1 / 0.9998 = 1.00020004 -> 1.0002
    expect(inverseToUnits(exact('0.99980000'), 4)).toBe(10_002);
    expect(inverseToUnits(exact('1.00000000'), 4)).toBe(10_000);
    expect(inverseToUnits(exact('4'), 2)).toBe(25);
    expect(inverseToUnits(exact('3'), 4)).toBe(3_333);
    expect(inverseToUnits(exact('0.00000000'), 4)).toBeUndefined();
    expect(inverseToUnits(exact('0.000000000000000001'), 4)).toBeUndefined();
  });

  it('multiplies two decimals at a scale, truncating', () => {
    // 1532 USDC at 1.0001 USDT = 1532.1532 USDT -> 1532.15
    expect(productToUnits(exact('1532.00000000'), exact('1.00010000'), 2)).toBe(153_215);
    expect(productToUnits(exact('0.5'), exact('0.5'), 2)).toBe(25);
    expect(productToUnits(exact('0.5'), exact('0.5'), 1)).toBe(2);
    expect(productToUnits(exact('99999999999'), exact('99999999999'), 0)).toBeUndefined();
  });
});
