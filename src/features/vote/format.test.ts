import { describe, expect, it } from 'vitest';
import { barWidth, formatShare, leadingOptions } from './format';

// The page's numbers: shares in the locale's percent pattern from the exact one-decimal text (never rounded up), the
// bar's width from the same text, and which coins lead a result.

describe('vote formatting', () => {
  it('formats shares in the locale’s percent pattern, cut to one decimal', () => {
    expect(formatShare(1, 3, 'en')).toBe('33.3%');
    expect(formatShare(2, 3, 'en')).toBe('66.6%');
    expect(formatShare(2, 3, 'de')).toBe('66,6\u00a0%');
    expect(formatShare(3, 3, 'de')).toBe('100,0\u00a0%');
    expect(formatShare(0, 0, 'en')).toBe('0.0%');
  });

  it('sizes the bar with the same exact text', () => {
    expect(barWidth(1, 3)).toBe('33.3%');
    expect(barWidth(0, 5)).toBe('0.0%');
  });

  it('marks the coins with the most votes, all of them on a tie, none without votes', () => {
    const o = (id: number, votes: number) => ({ id, votes });
    expect([...leadingOptions([o(1, 2), o(2, 5), o(3, 1)])]).toEqual([2]);
    expect([...leadingOptions([o(1, 4), o(2, 4), o(3, 1)])]).toEqual([1, 2]);
    expect([...leadingOptions([o(1, 0), o(2, 0)])]).toEqual([]);
  });
});
