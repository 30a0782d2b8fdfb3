// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { FinanceOrder, FinanceProduct } from '../../../protocol/finance';
import { DAY_MS } from '../../../protocol/rules/finance';
import { checkAmount, cycleDates, maxAmountUnits, redemptionOf, termsOf, yieldPreview } from './terms';

const product: FinanceProduct = {
  id: 1,
  family: 'trust',
  name: 'USDT 30',
  currency: 'USDT',
  scale: 6,
  cycle_days: 30,
  daily_rate: '0.0015',
  apr: '0.5475',
  min_amount: '100.000000',
  max_amount: '50000.000000',
  penalty: { kind: 'ratio', value: '0.004' },
  capacity: '20000.000000',
  sold_out: false,
  recommended: false,
};

const order: FinanceOrder = {
  id: 9,
  order_no: 'F00000009',
  product_id: 1,
  family: 'trust',
  name: 'USDT 30',
  currency: 'USDT',
  scale: 6,
  amount: '10000.000000',
  daily_rate: '0.0015',
  cycle_days: 30,
  penalty_rule: { kind: 'ratio', value: '0.004' },
  state: 'hosting',
  days_paid: 15,
  days_left: 15,
  daily_interest: '15.000000',
  expected_income: '450.000000',
  current_income: '225.000000',
  penalty: null,
  pay_time: 0,
  interest_start: DAY_MS,
  completion_time: 31 * DAY_MS,
  next_interest_at: 17 * DAY_MS,
  ended_at: null,
  request_id: 'r',
};

describe('finance buy figures', () => {
  it('previews one day and the whole cycle exactly, rounded down per day', () => {
    // 1,234.567891 × 0.0015 = 1.8518518365 → 1.851851 a day; × 30 days.
    expect(yieldPreview(1_234_567_891n, termsOf(product))).toEqual({ daily: 1_851_851n, total: 55_555_530n });
  });

  it('starts interest at the next 00:00 UTC and completes a whole cycle later', () => {
    const boughtAt = 10 * DAY_MS + 23 * 3_600_000;
    expect(cycleDates(boughtAt, 30)).toEqual({ start: 11 * DAY_MS, completion: 41 * DAY_MS });
    // Bought exactly at midnight: that day has begun, interest starts the next one.
    expect(cycleDates(10 * DAY_MS, 1)).toEqual({ start: 11 * DAY_MS, completion: 12 * DAY_MS });
  });

  it('checks an amount as the server does: required, plain decimal, decimals, minimum, what is on offer, balance', () => {
    const check = (amount: string, available: string | null = '100000') => {
      const r = checkAmount(amount, product, available);
      return r.ok ? r.units : r.problem;
    };
    expect(check('')).toBe('financeAmountRequired');
    expect(check('1,5')).toBe('amountInvalid');
    expect(check('-5')).toBe('amountInvalid');
    expect(check('100.0000001')).toBe('amountTooPrecise');
    expect(check('100.0000000')).toBe(100_000_000n);
    expect(check('99.999999')).toBe('financeAmountBelowMin');
    expect(check('0')).toBe('financeAmountBelowMin');
    // The capacity (20,000) is below the maximum (50,000): it is the limit now.
    expect(maxAmountUnits(product)).toBe(20_000_000_000n);
    expect(check('20000.000001')).toBe('financeAmountAboveMax');
    expect(check('20000')).toBe(20_000_000_000n);
    expect(check('500', '499.999999')).toBe('insufficientBalance');
    expect(check('500', null)).toBe(500_000_000n);
  });
});

describe('early redemption before confirming', () => {
  it('shows SPEC 9: 10,000 with 15 days left at 0.4% costs 600, 40 a day, 9,400 back', () => {
    expect(redemptionOf(order)).toEqual({ penalty: 600_000_000n, returned: 9_400_000_000n, perDay: 40_000_000n });
  });

  it('takes the server’s own figure when the order states one, and never returns less than nothing', () => {
    expect(redemptionOf({ ...order, penalty: '12.000000' }).penalty).toBe(12_000_000n);
    const long = { ...order, amount: '100.000000', cycle_days: 365, days_left: 300 };
    expect(redemptionOf(long)).toMatchObject({ penalty: 100_000_000n, returned: 0n });
  });
});
