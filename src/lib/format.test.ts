import { afterEach, describe, expect, it, vi } from 'vitest';
import { Decimal, parseLocaleAmount } from '../../core/money';
import { formatChange, formatMoney, formatNumber, formatPrice, truncatedFixed } from './format';

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
    expect(formatNumber('1234.5', 'th')).toBe('1,234.50');
    expect(formatNumber('1234.5', 'zh')).toBe('1,234.50');
    expect(formatNumber('1234.5', 'ko')).toBe('1,234.50');
    // Spanish CLDR data (minimumGroupingDigits 2): no group separator in a four-digit number, from five digits on.
    expect(formatNumber('1234.5', 'es')).toBe('1234,50');
    expect(formatNumber('12345.5', 'es')).toBe('12.345,50');
    expect(formatNumber('1234567.5', 'es')).toBe('1.234.567,50');
  });

  it('can leave out grouping and accepts numbers and Decimals as input', () => {
    expect(formatNumber('1234567.5', 'de', { grouping: false })).toBe('1234567,50');
    expect(formatNumber(1234.5, 'en')).toBe('1,234.50');
    expect(formatNumber(new Decimal('1234.56789'), 'de', { min: 0, max: 2 })).toBe('1.234,56');
  });

  it('falls back to en-US for a language tag Intl cannot take', () => {
    expect(formatNumber('1234.5', 'not_a_tag')).toBe('1,234.50');
  });

  it('builds one Intl.NumberFormat per language and options', () => {
    const Real = Intl.NumberFormat;
    let made = 0;
    Intl.NumberFormat = new Proxy(Real, {
      construct(target, args) {
        made += 1;
        return Reflect.construct(target, args);
      },
    });
    try {
      expect(formatNumber('1.5', 'ko', { min: 3, max: 7 })).toBe('1.500');
      expect(formatNumber('2.25', 'ko', { min: 3, max: 7 })).toBe('2.250');
      expect(formatNumber('2.25', 'th', { min: 3, max: 7 })).toBe('2.250');
    } finally {
      Intl.NumberFormat = Real;
    }
    expect(made).toBe(2);
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

describe('formatPrice (SPEC 9)', () => {
  it("shows the instrument's scale within 2 to 4 decimals, cut", () => {
    expect(formatPrice('65432.1987', 'de', 2)).toBe('65.432,19');
    expect(formatPrice('0.123456', 'en', 8)).toBe('0.1234');
    expect(formatPrice('3', 'en', 0)).toBe('3.00');
  });
});

describe('formatMoney (one number rule)', () => {
  const nbsp = '\u00a0';

  it('shows two decimals cut toward zero, with the unit after a no-break space', () => {
    expect(formatMoney('1234.567891', 'USDT', 'en')).toBe(`1,234.56${nbsp}USDT`);
    expect(formatMoney('1234.567891', 'USDT', 'de')).toBe(`1.234,56${nbsp}USDT`);
    expect(formatMoney('-12.009', 'USDT', 'en')).toBe(`-12.00${nbsp}USDT`);
    expect(formatMoney('7', 'USDT', 'en')).toBe(`7.00${nbsp}USDT`);
  });

  it('signs a result: a plus on a gain, a minus on a loss, neither on zero or a value cut to zero', () => {
    expect(formatMoney('9.600000', 'USDT', 'en', { signed: true })).toBe(`+9.60${nbsp}USDT`);
    expect(formatMoney('-12.000000', 'USDT', 'de', { signed: true })).toBe(`-12,00${nbsp}USDT`);
    expect(formatMoney('0.000000', 'USDT', 'en', { signed: true })).toBe(`0.00${nbsp}USDT`);
    expect(formatMoney('-0.004', 'USDT', 'en', { signed: true })).toBe(`0.00${nbsp}USDT`);
  });

  it('shows every decimal the value has on a detail page, at least two', () => {
    expect(formatMoney('8.500001', 'USDT', 'en', { exact: true, signed: true })).toBe(`+8.500001${nbsp}USDT`);
    expect(formatMoney('9.600000', 'USDT', 'de', { exact: true })).toBe(`9,60${nbsp}USDT`);
    expect(formatMoney('-0.000001', 'USDT', 'en', { exact: true, signed: true })).toBe(`-0.000001${nbsp}USDT`);
  });
});

describe('formatChange', () => {
  it("uses the locale's percent pattern with a plus above zero", () => {
    // de and es put a no-break space before the percent sign; en and ja none.
    expect(formatChange('1.25', 'de')).toBe('+1,25\u00a0%');
    expect(formatChange('1.25', 'es')).toBe('+1,25\u00a0%');
    expect(formatChange('1.25', 'en')).toBe('+1.25%');
    expect(formatChange('-3.5', 'ja')).toBe('-3.50%');
    expect(formatChange('1234.5', 'de')).toBe('+1.234,50\u00a0%');
  });

  it('cuts to two decimals and shows zero without a minus', () => {
    expect(formatChange('1.259', 'en')).toBe('+1.25%');
    expect(formatChange('-1.259', 'en')).toBe('-1.25%');
    expect(formatChange('0', 'en')).toBe('0.00%');
    expect(formatChange('-0.001', 'en')).toBe('0.00%');
    expect(formatChange('0.001', 'en')).toBe('+0.00%');
    expect(formatChange(null, 'en')).toBe('0.00%');
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

describe('parseLocaleAmount reads what formatNumber shows', () => {
  it('reads back what formatNumber shows, grouped or not, in every language', () => {
    // What an "all" button should put into the field: the amount in the user's locale, not the wire's '.' form
    // ('1.234' BTC written as '1.234' would read as 1234 in de).
    for (const lang of ['de', 'en', 'ja', 'ko', 'es', 'th', 'zh']) {
      for (const value of ['1.234', '1234.5', '0.00000001', '1234567.12345678', '1000', '12345']) {
        for (const grouping of [true, false]) {
          const shown = formatNumber(value, lang, { min: 0, max: 8, grouping });
          expect(parseLocaleAmount(shown, lang), `${shown} in ${lang}`).toBe(value);
        }
      }
    }
  });
});
