import { describe, expect, it } from 'vitest';
import { amountKeystrokes, editableAmount, wireAmount } from './amount-input';

describe('amount fields in the user number format', () => {
  it('reads German grouping and decimal comma, English the other way round', () => {
    expect(wireAmount(amountKeystrokes('1.000,5'), 'de')).toBe('1000.5');
    expect(wireAmount(amountKeystrokes('1,000.5'), 'en')).toBe('1000.5');
    expect(wireAmount('0,00000001', 'de')).toBe('0.00000001');
  });

  it('keeps only digits and separators while typing', () => {
    expect(amountKeystrokes('12a,5 €')).toBe('12,5');
  });

  it('sends text that is no number as typed, for the server to refuse', () => {
    expect(wireAmount(' 1.00,5 ', 'de')).toBe('1.00,5');
  });

  it('fills "all" in the user format, which reads back to the same exact value', () => {
    const shown = editableAmount('1234.56780000', 'de', 8);
    expect(shown).toBe('1234,5678');
    expect(wireAmount(shown, 'de')).toBe('1234.5678');
    expect(wireAmount(editableAmount('1.234', 'de', 8), 'de')).toBe('1.234');
  });
});
