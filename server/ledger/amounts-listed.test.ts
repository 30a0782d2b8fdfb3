import { describe, expect, it } from 'vitest';
import { writeTransaction } from '../platform/db/transaction';
import { openMemoryDatabase } from '../testing';
import {
  CURRENCY_SCALES,
  currencyScale,
  formatAmount,
  isCurrency,
  parseAmount,
  registerListedCurrency,
} from './amounts';
import { currenciesJob, loadCurrencies } from './currencies';
import { Ledger } from './ledger';
import { withLedger } from './tables';

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

  it('a coin the ledger adds in a transaction is a currency of 8 decimals at once, and its row commits with it', async () => {
    const handle = await openMemoryDatabase();
    try {
      const ledger = new Ledger(handle);
      expect(isCurrency('IEOC')).toBe(false);
      await writeTransaction(handle, (trx) => ledger.within(trx).addCurrency('IEOC', 8));
      expect(currencyScale('IEOC')).toBe(8);
      expect(parseAmount('IEOC', '1000')).toEqual({ ok: true, units: 100_000_000_000 });
      expect(formatAmount('IEOC', 1)).toBe('0.00000001');
      const rows = await withLedger(handle.db).selectFrom('ledger_currencies').select(['symbol', 'scale']).execute();
      expect(rows).toEqual([{ symbol: 'IEOC', scale: 8 }]);
      // Again: nothing changes; another scale or a static coin is refused.
      await ledger.addCurrency('IEOC', 8);
      await expect(ledger.addCurrency('IEOC', 6)).rejects.toThrow(/scale 8 already/);
      await expect(ledger.addCurrency('BTC', 8)).rejects.toThrow(/static/);
      expect(await withLedger(handle.db).selectFrom('ledger_currencies').select('symbol').execute()).toHaveLength(1);
    } finally {
      await handle.db.destroy();
    }
  });

  it('another process learns the currencies of the table when it loads them, not before', async () => {
    const handle = await openMemoryDatabase();
    try {
      // Written by another process: this one does not know it until it loads the table (at start, then by its job).
      await withLedger(handle.db)
        .insertInto('ledger_currencies')
        .values({ symbol: 'OTHR', scale: 8, created_at: 1 })
        .execute();
      expect(isCurrency('OTHR')).toBe(false);
      expect(await loadCurrencies(handle.db)).toBe(1);
      expect(currencyScale('OTHR')).toBe(8);
      expect(await currenciesJob(handle.db).run({ leading: true, stillLeading: () => true })).toBeUndefined();
      expect(await loadCurrencies(handle.db)).toBe(0);
    } finally {
      await handle.db.destroy();
    }
  });
});
