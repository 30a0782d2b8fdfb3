// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  coveredPrincipal,
  DAY_MS,
  DEFAULT_PENALTY,
  dailyInterest,
  daysDue,
  earlyRedemptionPenalty,
  type FinanceTerms,
  interestDueAt,
  interestStartDay,
  promisedYield,
  simpleApr,
} from './finance';

/** USDT has 6 decimals in the ledger: 1 USDT = 1,000,000 units. */
const usdt = (whole: number) => BigInt(whole) * 1_000_000n;
const terms = (cycleDays: number, dailyRate = '0.004'): FinanceTerms => ({
  dailyRate,
  cycleDays,
  penalty: DEFAULT_PENALTY,
});

describe('finance rules', () => {
  it('charges the SPEC 9 examples at the default ratio: 10,000 for 15 days → 600; 1,000 for 3 days → 12', () => {
    expect(earlyRedemptionPenalty(usdt(10_000), terms(30), 15)).toBe(usdt(600));
    expect(earlyRedemptionPenalty(usdt(1_000), terms(30), 3)).toBe(usdt(12));
    // 40 a day on 10,000 at 0.4%: the per-day figure of the same example.
    expect(earlyRedemptionPenalty(usdt(10_000), terms(30), 1)).toBe(usdt(40));
  });

  it('offers the other reading, 1.5 × one day\u2019s interest per remaining day, rounded up once', () => {
    const rule: FinanceTerms = {
      dailyRate: '0.001',
      cycleDays: 30,
      penalty: { kind: 'interest_multiple', value: '1.5' },
    };
    // 1,000 × 0.001 = 1 a day; × 1.5 × 4 days = 6.
    expect(earlyRedemptionPenalty(usdt(1_000), rule, 4)).toBe(usdt(6));
    // 1 unit × 0.001 × 1.5 = 0.0015 of a unit: the user pays a whole unit (rounded up, never down to nothing).
    expect(earlyRedemptionPenalty(1n, rule, 1)).toBe(1n);
  });

  it('never takes more than the principal, and nothing when no day is left', () => {
    expect(earlyRedemptionPenalty(usdt(100), terms(365), 300)).toBe(usdt(100));
    expect(earlyRedemptionPenalty(usdt(100), terms(15), 0)).toBe(0n);
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.integer({ min: 0, max: 400 }), (principal, days) => {
        const penalty = earlyRedemptionPenalty(principal, terms(400), days);
        expect(penalty >= 0n && penalty <= principal).toBe(true);
      }),
    );
  });

  it('rounds the penalty up by less than one unit, and the interest down by less than one unit', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 14n }),
        fc.integer({ min: 1, max: 99_999 }),
        fc.integer({ min: 1, max: 30 }),
        (principal, rateMillionths, days) => {
          const rate = `0.${String(rateMillionths).padStart(6, '0')}`;
          const exactInterest = principal * BigInt(rateMillionths); // units × 10^-6
          const interest = dailyInterest(principal, rate);
          expect(interest * 1_000_000n <= exactInterest).toBe(true);
          expect((interest + 1n) * 1_000_000n > exactInterest).toBe(true);
          const t: FinanceTerms = { dailyRate: '0.01', cycleDays: 30, penalty: { kind: 'ratio', value: rate } };
          const exactPenalty = BigInt(rateMillionths) * BigInt(days) * principal;
          const penalty = earlyRedemptionPenalty(principal, t, days);
          if (penalty < principal) {
            expect(penalty * 1_000_000n >= exactPenalty).toBe(true);
            expect((penalty - 1n) * 1_000_000n < exactPenalty).toBe(true);
          }
        },
      ),
    );
  });

  it('pays the days of a cycle from 00:00 UTC after the purchase, one a day, never more than the cycle', () => {
    const boughtAt = Date.UTC(2026, 10, 25, 15, 20);
    const start = interestStartDay(boughtAt);
    expect(start * DAY_MS).toBe(Date.UTC(2026, 10, 26));
    expect(daysDue(start, 15, boughtAt)).toBe(0);
    expect(daysDue(start, 15, Date.UTC(2026, 10, 26, 23, 59))).toBe(0);
    expect(interestDueAt(start, 1)).toBe(Date.UTC(2026, 10, 27));
    expect(daysDue(start, 15, Date.UTC(2026, 10, 27))).toBe(1);
    expect(daysDue(start, 15, Date.UTC(2026, 11, 11))).toBe(15);
    expect(daysDue(start, 15, Date.UTC(2027, 5, 1))).toBe(15);
  });

  it('shows APR as daily × 365 without compounding', () => {
    expect(simpleApr('0.0002')).toBe('0.073');
    expect(simpleApr('0.004')).toBe('1.46');
    expect(simpleApr('0.01')).toBe('3.65');
  });

  it('sells exactly up to what the reserve covers', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 13n }),
        fc.integer({ min: 1, max: 9_999 }),
        fc.integer({ min: 1, max: 365 }),
        (free, rateTenThousandths, cycleDays) => {
          const t = { dailyRate: `0.${String(rateTenThousandths).padStart(4, '0')}`, cycleDays };
          const covered = coveredPrincipal(free, t);
          expect(promisedYield(covered, t) <= free).toBe(true);
          expect(promisedYield(covered + 1n, t) > free).toBe(true);
        },
      ),
    );
  });

  it('promises the whole cycle\u2019s rounded daily interest', () => {
    // 10,000 at 0.4% for 15 days: 40 a day, 600 in all.
    expect(promisedYield(usdt(10_000), terms(15))).toBe(usdt(600));
    expect(promisedYield(333n, { dailyRate: '0.01', cycleDays: 10 })).toBe(30n);
  });
});
