import { describe, expect, it } from 'vitest';
import { CURRENCY_SCALES, checkUnits, currencyScale, formatAmount, MAX_AMOUNT_UNITS, parseAmount } from './amounts';

const units = (currency: string, text: string) => {
  const result = parseAmount(currency, text);
  return result.ok ? result.units : result.error;
};

describe('ledger amounts', () => {
  it('keeps the base coins and the market coins, with fixed scales', () => {
    expect([...CURRENCY_SCALES.keys()].slice(0, 4)).toEqual(['BTC', 'ETH', 'USDT', 'USDC']);
    expect([currencyScale('BTC'), currencyScale('ETH'), currencyScale('USDT'), currencyScale('USDC')]).toEqual([
      8, 8, 6, 6,
    ]);
    expect(CURRENCY_SCALES.get('SOL')).toBe(8);
    expect(CURRENCY_SCALES.has('AAPL')).toBe(false);
    expect(() => currencyScale('EUR')).toThrow();
  });

  it('parses exact decimals into minor units', () => {
    expect(units('BTC', '1')).toBe(100_000_000);
    expect(units('BTC', '0.00000001')).toBe(1);
    expect(units('USDT', '12.5')).toBe(12_500_000);
    expect(units('USDT', ' 7.000001 ')).toBe(7_000_001);
    expect(units('USDT', '007.10')).toBe(7_100_000);
    expect(units('USDT', '.5')).toBe(500_000);
    expect(units('USDT', '5.')).toBe(5_000_000);
    // Trailing zeros beyond the scale still name an exact amount.
    expect(units('USDT', '1.5000000000')).toBe(1_500_000);
    // 0.1 + 0.2 in floats is 0.30000000000000004; the text path never sees a float.
    expect(units('ETH', '0.3')).toBe(30_000_000);
  });

  it('refuses empty, malformed, zero and negative amounts with their own keys', () => {
    expect(units('USDT', '')).toBe('amountRequired');
    expect(units('USDT', '   ')).toBe('amountRequired');
    for (const text of ['abc', '1e3', '1,5', '1.2.3', '+5', '0x10', 'NaN', 'Infinity', '.', '1 000', '١٢', '--1']) {
      expect(units('USDT', text), text).toBe('amountInvalid');
    }
    for (const text of ['0', '0.000000', '00', '-1', '-0.5', '-0', '.0']) {
      expect(units('USDT', text), text).toBe('amountNotPositive');
    }
  });

  it('refuses amounts more precise than the currency', () => {
    expect(units('USDT', '0.0000001')).toBe('amountTooPrecise');
    expect(units('BTC', '1.000000001')).toBe('amountTooPrecise');
    expect(units('BTC', '0.000000005')).toBe('amountTooPrecise');
  });

  it('refuses amounts above the limit, however many digits they have', () => {
    expect(units('USDT', '1000000000')).toBe(MAX_AMOUNT_UNITS);
    expect(units('USDT', '1000000000.000001')).toBe('amountTooLarge');
    expect(units('BTC', '10000000')).toBe(MAX_AMOUNT_UNITS);
    expect(units('BTC', '10000001')).toBe('amountTooLarge');
    expect(units('BTC', '9'.repeat(400))).toBe('amountTooLarge');
    expect(units('BTC', `${'0'.repeat(400)}1`)).toBe(100_000_000);
  });

  it('refuses currencies the ledger does not keep', () => {
    expect(units('EUR', '1')).toBe('currencyUnsupported');
    expect(units('btc', '1')).toBe('currencyUnsupported');
  });

  it('checks amounts already in minor units', () => {
    expect(checkUnits(1)).toBeNull();
    expect(checkUnits(MAX_AMOUNT_UNITS)).toBeNull();
    expect(checkUnits(0)).toBe('amountNotPositive');
    expect(checkUnits(-5)).toBe('amountNotPositive');
    expect(checkUnits(1.5)).toBe('amountInvalid');
    expect(checkUnits(Number.NaN)).toBe('amountInvalid');
    expect(checkUnits(Number.POSITIVE_INFINITY)).toBe('amountInvalid');
    expect(checkUnits(MAX_AMOUNT_UNITS + 1)).toBe('amountTooLarge');
    expect(checkUnits(2 ** 60)).toBe('amountTooLarge');
  });

  it('formats minor units back to exact decimals, numbers and bigints alike', () => {
    expect(formatAmount('BTC', 1)).toBe('0.00000001');
    expect(formatAmount('USDT', 12_500_000)).toBe('12.500000');
    expect(formatAmount('USDT', -1)).toBe('-0.000001');
    expect(formatAmount('USDT', 0)).toBe('0.000000');
    expect(formatAmount('BTC', 2n ** 70n)).toBe('11805916207174.11303424');
    expect(() => formatAmount('BTC', 0.5)).toThrow();
    for (const text of ['1', '0.00000001', '123456.789', '10000000']) {
      const parsed = parseAmount('BTC', text);
      expect(parsed.ok && parseAmount('BTC', formatAmount('BTC', parsed.units))).toEqual(parsed);
    }
  });
});
