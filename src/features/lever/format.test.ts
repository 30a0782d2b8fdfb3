// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { signClass } from './format';

describe('the colour of a signed amount', () => {
  it('follows the figure as shown: two decimals, cut toward zero', () => {
    expect(signClass('12.5')).toBe('lever-up');
    expect(signClass('-0.01')).toBe('lever-down');
    expect(signClass('-0.004')).toBe('');
    expect(signClass('0.009999')).toBe('');
    expect(signClass('-3')).toBe('lever-down');
    expect(signClass('0')).toBe('');
    expect(signClass(null)).toBe('');
  });
});
