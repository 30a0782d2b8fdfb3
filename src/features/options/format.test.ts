import { describe, expect, it } from 'vitest';
import { houseEdge } from '../../../protocol/rules/options';
import { formatRatioPercent, periodUnits } from './format';

describe('option figures on screen', () => {
  it('shows ratios and house edges as exact percents in the user language', () => {
    expect(formatRatioPercent('0.80', 'en')).toBe('80%');
    expect(formatRatioPercent('0.875', 'en')).toBe('87.5%');
    expect(formatRatioPercent(houseEdge('0.85'), 'en')).toBe('7.5%');
    expect(formatRatioPercent(houseEdge('0.85'), 'de')).toBe('7,5%');
    expect(formatRatioPercent(houseEdge('0.80'), 'en')).toBe('10%');
  });

  it('names periods in seconds or whole minutes', () => {
    expect(periodUnits(30)).toEqual({ value: 30, unit: 's' });
    expect(periodUnits(120)).toEqual({ value: 2, unit: 'm' });
    expect(periodUnits(90)).toEqual({ value: 90, unit: 's' });
  });
});
