// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { type StopBasis, stopEcho, stopInOtherUnit, stopWirePrice } from './stop-input';

const LONG_10X: StopBasis = { side: 'long', entry: '100000.00', leverage: 10, priceScale: 2 };

describe('a stop typed as a price or as an ROE', () => {
  it('sends a typed price as it is and an ROE as the price it stands for', () => {
    expect(stopWirePrice('price', '101000.5', 'take_profit', LONG_10X)).toBe('101000.5');
    expect(stopWirePrice('roe', '50', 'take_profit', LONG_10X)).toBe('105000.00');
    expect(stopWirePrice('roe', '25', 'stop_loss', LONG_10X)).toBe('97500.00');
    expect(stopWirePrice('roe', '50', 'take_profit', { ...LONG_10X, side: 'short' })).toBe('95000.00');
  });

  it('has no price for an empty field, an unreadable ROE or no entry yet', () => {
    expect(stopWirePrice('roe', '', 'take_profit', LONG_10X)).toBe('');
    expect(stopWirePrice('roe', '1.234', 'take_profit', LONG_10X)).toBeNull();
    expect(stopWirePrice('roe', '50', 'take_profit', { ...LONG_10X, entry: null })).toBeNull();
    expect(stopWirePrice('roe', '1000', 'stop_loss', LONG_10X)).toBeNull();
  });

  it('echoes the other figure: the price of an ROE, the ROE of a price', () => {
    expect(stopEcho('roe', '50', 'take_profit', LONG_10X)).toEqual({ price: '105000.00' });
    expect(stopEcho('price', '97500', 'stop_loss', LONG_10X)).toEqual({ roe: '-25.00' });
    expect(stopEcho('price', 'x', 'stop_loss', LONG_10X)).toBeNull();
    expect(stopEcho('price', '', 'stop_loss', LONG_10X)).toBeNull();
  });

  it('turns the figure into the other unit when the unit switches, a stop-loss as the size of its loss', () => {
    expect(stopInOtherUnit('price', '97500', 'stop_loss', LONG_10X)).toBe('25.00');
    expect(stopInOtherUnit('roe', '25', 'stop_loss', LONG_10X)).toBe('97500.00');
    expect(stopInOtherUnit('price', '105000', 'take_profit', LONG_10X)).toBe('50.00');
    expect(stopInOtherUnit('roe', '', 'take_profit', LONG_10X)).toBe('');
    expect(stopInOtherUnit('roe', '50', 'take_profit', { ...LONG_10X, entry: null })).toBe('');
  });
});
