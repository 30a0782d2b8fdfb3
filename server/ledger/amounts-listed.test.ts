import { describe, expect, it } from 'vitest';
import { INSTRUMENTS, listings } from '../market';
import {
  CURRENCY_SCALES,
  currencyScale,
  formatAmount,
  isCurrency,
  parseAmount,
  registerListedCurrency,
} from './amounts';

describe('currencies listed at run time', () => {
  it('a registered currency is parsed, formatted and listed like the static ones', () => {
    expect(isCurrency('XYZ')).toBe(false);
    expect(parseAmount('XYZ', '1')).toEqual({ ok: false, error: 'currencyUnsupported' });
    expect(() => formatAmount('XYZ', 1)).toThrow(/not a ledger currency/);
    const before = [...CURRENCY_SCALES.keys()];

    registerListedCurrency('XYZ', 8);
    expect(isCurrency('XYZ')).toBe(true);
    expect(currencyScale('XYZ')).toBe(8);
    expect(parseAmount('XYZ', '12.5')).toEqual({ ok: true, units: 1_250_000_000 });
    expect(parseAmount('XYZ', '0.000000001')).toEqual({ ok: false, error: 'amountTooPrecise' });
    expect(formatAmount('XYZ', 1_250_000_000)).toBe('12.50000000');
    // The map callers hold is live: the new currency comes after the static ones.
    expect([...CURRENCY_SCALES.keys()]).toEqual([...before, 'XYZ']);
    expect(CURRENCY_SCALES.get('XYZ')).toBe(8);

    registerListedCurrency('XYZ', 8); // again: nothing changes
    expect([...CURRENCY_SCALES.keys()].filter((c) => c === 'XYZ')).toHaveLength(1);
  });

  it('refuses another scale for a known currency and symbols that cannot be currencies', () => {
    expect(() => registerListedCurrency('BTC', 6)).toThrow(/scale 8 already/);
    expect(() => registerListedCurrency('USDT', 6)).not.toThrow();
    expect(() => registerListedCurrency('abc', 8)).toThrow(/not a currency symbol/);
    expect(() => registerListedCurrency('ABC', 13)).toThrow(/scale/);
    expect(() => registerListedCurrency('ABC', 1.5)).toThrow(/scale/);
    expect(isCurrency('ABC')).toBe(false);
  });

  it('a coin listed on the market becomes a currency of 8 decimals in this process at once', () => {
    const base = INSTRUMENTS[0] as (typeof INSTRUMENTS)[number];
    expect(isCurrency('IEOC')).toBe(false);
    listings.register({ ...base, id: 1000, symbol: 'IEOC', name: 'IEO Coin', startPrice: '0.08000' }, Date.now());
    expect(currencyScale('IEOC')).toBe(8);
    expect(parseAmount('IEOC', '1000')).toEqual({ ok: true, units: 100_000_000_000 });
    expect(formatAmount('IEOC', 1)).toBe('0.00000001');
  });
});
