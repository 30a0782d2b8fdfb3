// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REFERRAL_SHARE, inviteLinkPath } from '../referral';
import {
  clampBonus,
  formatRatio,
  parseRatio,
  RATIO_MAX_BP,
  RATIO_ONE,
  ratioInRange,
  ratioPercent,
  rebateSplit,
} from './referral';

describe('referral rules', () => {
  it('reads ratios as fractions with at most 4 decimals, exactly', () => {
    expect(parseRatio('0.2')).toBe(2000n);
    expect(parseRatio(' 0.0125 ')).toBe(125n);
    expect(parseRatio('0')).toBe(0n);
    expect(parseRatio('1')).toBe(10_000n);
    expect(parseRatio(DEFAULT_REFERRAL_SHARE)).toBe(2000n);
    for (const bad of ['', '.2', '0.12345', '-0.1', '20%', '1e-2', '0,2', 'abc', '0.']) {
      expect(parseRatio(bad), bad).toBeNull();
    }
  });

  it('formats basis points with 4 decimals and as a percentage', () => {
    expect(formatRatio(2000n)).toBe('0.2000');
    expect(formatRatio(5n)).toBe('0.0005');
    expect(formatRatio(10_000n)).toBe('1.0000');
    expect(ratioPercent('0.2000')).toBe('20');
    expect(ratioPercent('0.0125')).toBe('1.25');
    expect(ratioPercent(1250n)).toBe('12.5');
    expect(ratioPercent('0.0001')).toBe('0.01');
    expect(() => formatRatio(-1n)).toThrow(RangeError);
  });

  it('keeps operator ratios between 0 and 50%, and a bonus never above its ratio', () => {
    expect(RATIO_MAX_BP).toBe(5000n);
    expect(ratioInRange(0n)).toBe(true);
    expect(ratioInRange(5000n)).toBe(true);
    expect(ratioInRange(5001n)).toBe(false);
    expect(clampBonus(1000n, 1500n)).toBe(1000n);
    expect(clampBonus(1000n, 500n)).toBe(500n);
  });

  it('splits a fee: the default 20% of 1.234567 USDT, and a partner passing 5% of 30%', () => {
    expect(rebateSplit(1_234_567n, 2000n)).toEqual({ total: 246_913n, referrer: 246_913n, invitee: 0n });
    // 30% of 999 = 299.7 → 299; 5% = 49.95 → 49; the referrer keeps the rest, 250.
    expect(rebateSplit(999n, 3000n, 500n)).toEqual({ total: 299n, referrer: 250n, invitee: 49n });
    expect(rebateSplit(0n, 3000n, 500n)).toEqual({ total: 0n, referrer: 0n, invitee: 0n });
    expect(() => rebateSplit(10n, 1000n, 1001n)).toThrow(RangeError);
    expect(() => rebateSplit(-1n, 1000n)).toThrow(RangeError);
  });

  it('never pays more than ratio × fee, and the parts add up (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 53n }),
        fc.bigInt({ min: 0n, max: RATIO_ONE }),
        fc.bigInt({ min: 0n, max: RATIO_ONE }),
        (fee, a, b) => {
          const ratio = a > b ? a : b;
          const bonus = a > b ? b : a;
          const s = rebateSplit(fee, ratio, bonus);
          expect(s.referrer + s.invitee).toBe(s.total);
          expect(s.total * RATIO_ONE <= fee * ratio).toBe(true);
          expect(s.invitee * RATIO_ONE <= fee * bonus).toBe(true);
          expect(s.referrer >= 0n && s.invitee >= 0n).toBe(true);
          // Rounded down by less than one unit each.
          expect(fee * ratio - s.total * RATIO_ONE < RATIO_ONE).toBe(true);
        },
      ),
    );
  });

  it('round-trips every basis point through its text', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: RATIO_ONE }), (bp) => parseRatio(formatRatio(bp)) === bp));
  });

  it('builds the invite link path', () => {
    expect(inviteLinkPath('AB12CD34')).toBe('/pages/user/register?invite=AB12CD34');
  });
});
