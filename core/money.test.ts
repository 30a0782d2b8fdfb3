// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { Decimal, parseLocaleAmount, toDecimal, truncatedString } from './money';

describe('toDecimal and truncatedString', () => {
  it('reads wire strings exactly and never uses exponent notation', () => {
    expect(toDecimal(' 0.1 ')?.plus('0.2').toString()).toBe('0.3');
    expect(toDecimal('1e-9')?.toString()).toBe('0.000000001');
    expect(toDecimal('')).toBeNull();
    expect(toDecimal('1,5')).toBeNull();
    expect(toDecimal('Infinity')).toBeNull();
  });

  it('cuts and pads', () => {
    expect(truncatedString(new Decimal('1.23456'), 4)).toBe('1.2345');
    expect(truncatedString(new Decimal('5'), 2)).toBe('5.00');
    expect(truncatedString(new Decimal('5.9'), 0)).toBe('5');
  });
});

describe('parseLocaleAmount', () => {
  describe('de (decimal comma, dot groups)', () => {
    it('reads the comma as the decimal and dots as groups', () => {
      expect(parseLocaleAmount('1.000,5', 'de')).toBe('1000.5');
      expect(parseLocaleAmount('1.234.567,89', 'de')).toBe('1234567.89');
      expect(parseLocaleAmount('0,001', 'de')).toBe('0.001');
      expect(parseLocaleAmount('12', 'de')).toBe('12');
      expect(parseLocaleAmount('1234,50', 'de')).toBe('1234.5');
      expect(parseLocaleAmount(',5', 'de')).toBe('0.5');
      expect(parseLocaleAmount('1,', 'de')).toBe('1');
      expect(parseLocaleAmount(' 1,5 ', 'de')).toBe('1.5');
    });

    it('reads a dot in a valid group position as a group: 1.000 is one thousand', () => {
      expect(parseLocaleAmount('1.000', 'de')).toBe('1000');
      expect(parseLocaleAmount('12.345', 'de')).toBe('12345');
      expect(parseLocaleAmount('1.000.000', 'de')).toBe('1000000');
      expect(parseLocaleAmount('1.500', 'de')).toBe('1500');
    });

    it('reads a single dot that cannot be a group as the decimal point', () => {
      expect(parseLocaleAmount('1.5', 'de')).toBe('1.5');
      expect(parseLocaleAmount('1.50', 'de')).toBe('1.5');
      expect(parseLocaleAmount('0.001', 'de')).toBe('0.001');
      expect(parseLocaleAmount('1.0005', 'de')).toBe('1.0005');
      expect(parseLocaleAmount('.5', 'de')).toBe('0.5');
    });

    it('refuses groups in wrong places and the English order of separators', () => {
      expect(parseLocaleAmount('1.00,5', 'de')).toBeNull();
      expect(parseLocaleAmount('1.0000,5', 'de')).toBeNull();
      expect(parseLocaleAmount('0.100,5', 'de')).toBeNull();
      expect(parseLocaleAmount('1,000.5', 'de')).toBeNull();
      expect(parseLocaleAmount('1.000.5', 'de')).toBeNull();
      expect(parseLocaleAmount('1,5,0', 'de')).toBeNull();
      expect(parseLocaleAmount('1,5.', 'de')).toBeNull();
    });
  });

  describe('es (decimal comma, dot groups from five digits)', () => {
    it('reads the comma as the decimal and accepts dot groups even in four digits', () => {
      expect(parseLocaleAmount('1234,5', 'es')).toBe('1234.5');
      expect(parseLocaleAmount('1.234,5', 'es')).toBe('1234.5');
      expect(parseLocaleAmount('12.345,67', 'es')).toBe('12345.67');
      expect(parseLocaleAmount('1.000', 'es')).toBe('1000');
      expect(parseLocaleAmount('2.5', 'es')).toBe('2.5');
    });

    it('refuses what is not a number', () => {
      expect(parseLocaleAmount('12.34,5', 'es')).toBeNull();
      expect(parseLocaleAmount('1,2,3', 'es')).toBeNull();
    });
  });

  describe('en (decimal dot, comma groups)', () => {
    it('reads the dot as the decimal and commas as groups', () => {
      expect(parseLocaleAmount('1,000.5', 'en')).toBe('1000.5');
      expect(parseLocaleAmount('1000.5', 'en')).toBe('1000.5');
      expect(parseLocaleAmount('1.000', 'en')).toBe('1');
      expect(parseLocaleAmount('1,000', 'en')).toBe('1000');
      expect(parseLocaleAmount('1,234,567.000100', 'en')).toBe('1234567.0001');
      expect(parseLocaleAmount('007.50', 'en')).toBe('7.5');
    });

    it('reads a single comma that cannot be a group as the decimal point', () => {
      expect(parseLocaleAmount('1,5', 'en')).toBe('1.5');
      expect(parseLocaleAmount('0,001', 'en')).toBe('0.001');
    });

    it('refuses groups in wrong places and the German order of separators', () => {
      expect(parseLocaleAmount('1.000,5', 'en')).toBeNull();
      expect(parseLocaleAmount('1,00.5', 'en')).toBeNull();
      expect(parseLocaleAmount('1,000,5', 'en')).toBeNull();
      expect(parseLocaleAmount('1.2.3', 'en')).toBeNull();
    });
  });

  describe('ja (decimal dot, comma groups, full-width input)', () => {
    it('reads ASCII and full-width digits and separators', () => {
      expect(parseLocaleAmount('1,000.5', 'ja')).toBe('1000.5');
      expect(parseLocaleAmount('１，０００．５', 'ja')).toBe('1000.5');
      expect(parseLocaleAmount('０．０１', 'ja')).toBe('0.01');
    });

    it('refuses what is not a number', () => {
      expect(parseLocaleAmount('１２三', 'ja')).toBeNull();
      expect(parseLocaleAmount('1,00,000', 'ja')).toBeNull();
      expect(parseLocaleAmount('１．０００．０００', 'ja')).toBeNull();
    });
  });

  describe('th (decimal dot, comma groups, Thai digits)', () => {
    it('reads Latin and Thai digits', () => {
      expect(parseLocaleAmount('1,234.56', 'th')).toBe('1234.56');
      expect(parseLocaleAmount('๑,๒๓๔.๕', 'th')).toBe('1234.5');
      expect(parseLocaleAmount('0.5', 'th')).toBe('0.5');
    });

    it('refuses the German order of separators', () => {
      expect(parseLocaleAmount('1.234,56', 'th')).toBeNull();
    });
  });

  it('keeps every digit, with no float anywhere', () => {
    expect(parseLocaleAmount('12.345.678.901.234.567.890,123456789', 'de')).toBe('12345678901234567890.123456789');
    expect(parseLocaleAmount('0,1', 'de')).toBe('0.1');
  });

  it('reads a sign and leaves judging it to the caller', () => {
    expect(parseLocaleAmount('-1,5', 'de')).toBe('-1.5');
    expect(parseLocaleAmount('\u22121.5', 'en')).toBe('-1.5');
    expect(parseLocaleAmount('+2', 'en')).toBe('2');
    expect(parseLocaleAmount('-0', 'en')).toBe('0');
  });

  it('returns null for input that is not a number', () => {
    for (const lang of ['de', 'en', 'es', 'ja', 'th']) {
      for (const bad of [
        '',
        '   ',
        '-',
        '+',
        '.',
        ',',
        'abc',
        '1e5',
        '1 000',
        '1_000',
        '--1',
        '- 1',
        '1-',
        '0x10',
        'NaN',
      ]) {
        expect(parseLocaleAmount(bad, lang), `${JSON.stringify(bad)} in ${lang}`).toBeNull();
      }
    }
  });

  it('falls back to English separators for a language tag Intl cannot take', () => {
    expect(parseLocaleAmount('1,000.5', 'not_a_tag')).toBe('1000.5');
  });
});
