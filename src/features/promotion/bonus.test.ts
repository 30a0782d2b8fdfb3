import { describe, expect, it } from 'vitest';
import { checkBonus, keptRatio, percentText } from './bonus';

describe('partner bonus input', () => {
  it('reads a percentage in the user format into the wire fraction', () => {
    expect(checkBonus('2,5', 'de', '0.3000')).toEqual({ ok: true, bonus: '0.0250' });
    expect(checkBonus('2.5', 'en', '0.3000')).toEqual({ ok: true, bonus: '0.0250' });
    expect(checkBonus(' 0 ', 'en', '0.3000')).toEqual({ ok: true, bonus: '0.0000' });
    expect(checkBonus('30', 'en', '0.3000')).toEqual({ ok: true, bonus: '0.3000' });
    expect(checkBonus('0.01', 'en', '0.3000')).toEqual({ ok: true, bonus: '0.0001' });
  });

  it('refuses empty, malformed, too fine and out-of-range values', () => {
    expect(checkBonus('', 'en', '0.3000')).toEqual({ ok: false, problem: 'required' });
    expect(checkBonus('abc', 'en', '0.3000')).toEqual({ ok: false, problem: 'invalid' });
    expect(checkBonus('1.2.3', 'en', '0.3000')).toEqual({ ok: false, problem: 'invalid' });
    expect(checkBonus('2.555', 'en', '0.3000')).toEqual({ ok: false, problem: 'precision' });
    expect(checkBonus('30.01', 'en', '0.3000')).toEqual({ ok: false, problem: 'range' });
    expect(checkBonus('-1', 'en', '0.3000')).toEqual({ ok: false, problem: 'range' });
    expect(checkBonus('100000', 'en', '0.3000')).toEqual({ ok: false, problem: 'range' });
  });

  it('shows ratios as percentages and what the partner keeps', () => {
    expect(percentText('0.0250', 'de')).toBe('2,5');
    expect(percentText('0.2000', 'en')).toBe('20');
    expect(percentText('0.0125', 'en')).toBe('1.25');
    expect(keptRatio('0.3000', '0.0500')).toBe('0.2500');
    expect(keptRatio('0.1000', '0.2000')).toBe('0.0000');
  });
});
