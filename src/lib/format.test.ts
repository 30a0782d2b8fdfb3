import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatNumber, truncatedFixed } from './format';
import { Decimal } from './money';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('formatNumber (SPEC 9)', () => {
  it('uses German separators for de and English for en', () => {
    expect(formatNumber('1234.56', 'de')).toBe('1.234,56');
    expect(formatNumber('1234.56', 'en')).toBe('1,234.56');
    expect(formatNumber('1234567.5', 'de')).toBe('1.234.567,50');
    expect(formatNumber('1234567.5', 'en')).toBe('1,234,567.50');
  });

  it('shows at least 2 and at most 4 decimals, cutting instead of rounding', () => {
    expect(formatNumber('3', 'en')).toBe('3.00');
    expect(formatNumber('3.1', 'en')).toBe('3.10');
    expect(formatNumber('3.123', 'en')).toBe('3.123');
    expect(formatNumber('3.12349', 'en')).toBe('3.1234');
    expect(formatNumber('0.99999', 'de')).toBe('0,9999');
    expect(formatNumber('2.5', 'en', { min: 0, max: 0 })).toBe('2');
  });

  it('is exact beyond float precision and handles negatives and exponents', () => {
    expect(formatNumber('12345678901234567890.123456', 'en')).toBe('12,345,678,901,234,567,890.1234');
    expect(formatNumber('-1234.5', 'de')).toBe('-1.234,50');
    expect(formatNumber('-0.00001', 'en')).toBe('0.00');
    expect(formatNumber('1e-7', 'en', { max: 8 })).toBe('0.0000001');
    expect(formatNumber(new Decimal('0.1').plus('0.2'), 'en')).toBe('0.30');
  });

  it('uses the locale of other languages', () => {
    expect(formatNumber('1234.5', 'ja')).toBe('1,234.50');
    expect(formatNumber('1234.5', 'es')).toMatch(/^1\.?234,50$/);
  });

  it('logs and returns 0 when formatting fails', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(formatNumber('abc', 'de')).toBe('0');
    expect(formatNumber('', 'en')).toBe('0');
    expect(formatNumber(null, 'en')).toBe('0');
    expect(formatNumber(Number.NaN, 'en')).toBe('0');
    expect(formatNumber('Infinity', 'en')).toBe('0');
    expect(warn).toHaveBeenCalledTimes(5);
  });
});

describe('truncatedFixed', () => {
  it('truncates, never rounds', () => {
    expect(truncatedFixed('1.23456', 4)).toBe('1.2345');
    expect(truncatedFixed('1.99999', 2)).toBe('1.99');
    expect(truncatedFixed('-1.23456', 4)).toBe('-1.2345');
    expect(truncatedFixed('-0.00009', 4)).toBe('0.0000');
  });

  it('pads to the requested decimals', () => {
    expect(truncatedFixed('5', 4)).toBe('5.0000');
    expect(truncatedFixed('5.1', 0)).toBe('5');
  });

  it('logs and returns 0 on bad input', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(truncatedFixed('1,5', 2)).toBe('0');
    expect(warn).toHaveBeenCalledOnce();
  });
});
