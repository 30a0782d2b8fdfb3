// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { C2cAd, C2cOrder, C2cStatus } from '../../../protocol/c2c';
import { c2cFiatAmount, priceUnits } from '../../../protocol/rules/c2c';
import { clockOf, formatC2cPrice, formatCoin, formatFiat } from './format';
import { belongsTo, mergeOrders, openOrderOn, statusesOf } from './orders';
import { checkFiat, checkQuantity, figuresOf, maxQuantity, orderable } from './terms';

// The C2C pages' own logic: the buy checks (the server's keys in the server's order), the total by the published rule
// (what the server will charge), the fiat-first input, the order list's merge with the stream, the formatting.

const ad: Pick<C2cAd, 'scale' | 'price' | 'min_fiat' | 'max_fiat' | 'available'> = {
  scale: 8,
  price: '61234.57',
  min_fiat: '50.00',
  max_fiat: '2000.00',
  available: '0.02000000',
};

describe('the buy checks', () => {
  it('names the same problems as the server, in its order', () => {
    expect(checkQuantity('', ad)).toEqual({ ok: false, problem: 'c2cQuantityRequired' });
    expect(checkQuantity('1e3', ad)).toEqual({ ok: false, problem: 'amountInvalid' });
    expect(checkQuantity('-1', ad)).toEqual({ ok: false, problem: 'amountInvalid' });
    expect(checkQuantity('0.000000001', ad)).toEqual({ ok: false, problem: 'amountTooPrecise' });
    expect(checkQuantity('0', ad)).toMatchObject({ ok: false, problem: 'amountNotPositive' });
    expect(checkQuantity('0.0001', ad)).toMatchObject({ ok: false, problem: 'c2cBelowMin' });
    expect(checkQuantity('0.05', ad)).toMatchObject({ ok: false, problem: 'c2cAboveMax' });
    // Within the limits (1,224.69 EUR) but more than the ad has left.
    expect(checkQuantity('0.02', ad)).toMatchObject({ ok: true });
    expect(checkQuantity('0.03', { ...ad, max_fiat: '5000.00' })).toMatchObject({ ok: false, problem: 'c2cSoldOut' });
  });

  it('totals quantity × price rounded up to the cent, the rule the server charges by', () => {
    const c = checkQuantity('0.01234567', ad);
    // 0.01234567 × 61234.57 = 755.9838...  → 755.99
    expect(c).toMatchObject({ ok: true, quantity: '0.01234567', amount: '755.99' });
    expect(c.ok && c.cents).toBe(c2cFiatAmount(1_234_567n, 8, priceUnits('61234.57') ?? 0n));
    // An exact product is not rounded.
    expect(figuresOf(1_000_000n, { ...ad, price: '60000' })).toMatchObject({
      amount: '600.00',
      quantity: '0.01000000',
    });
  });

  it('reads a fiat amount as the largest quantity whose total is at most it', () => {
    const c = checkFiat('100', ad);
    expect(c).toMatchObject({ ok: true });
    if (!c.ok) return;
    expect(c.cents).toBeLessThanOrEqual(10_000n);
    // One unit more would cost more than typed.
    expect(figuresOf(c.units + 1n, ad).cents).toBeGreaterThan(10_000n);
    expect(checkFiat('100.001', ad)).toEqual({ ok: false, problem: 'amountTooPrecise' });
    expect(checkFiat('10', ad)).toMatchObject({ ok: false, problem: 'c2cBelowMin' });
    expect(checkFiat('', ad)).toEqual({ ok: false, problem: 'c2cQuantityRequired' });
  });

  it('knows the most that can be ordered and whether anything can', () => {
    // 2,000 EUR buys about 0.0327 at this price, but only 0.02 are left.
    expect(maxQuantity(ad)).toBe(2_000_000n);
    // With more left: the largest quantity whose total stays within the 2,000 EUR maximum.
    const most = maxQuantity({ ...ad, available: '1' });
    expect(figuresOf(most, ad).cents).toBeLessThanOrEqual(200_000n);
    expect(figuresOf(most + 1n, ad).cents).toBeGreaterThan(200_000n);
    expect(orderable(ad)).toBe(true);
    // Left: 0.0005 BTC ≈ 30.62 EUR, below the 50 EUR minimum.
    expect(orderable({ ...ad, available: '0.0005' })).toBe(false);
  });
});

const T0 = 1_700_000_000_000;
const order = (id: number, status: C2cStatus, role: 'buyer' | 'merchant' = 'buyer'): C2cOrder => ({
  id,
  sn: `C${id}`,
  ad_id: 1,
  role,
  merchant_nickname: 'M',
  buyer_nickname: 'B',
  coin: 'BTC',
  scale: 8,
  fiat: 'EUR',
  price: '60000.00',
  quantity: '0.01000000',
  amount: '600.00',
  min_fiat: '50.00',
  max_fiat: '5000.00',
  pay_type: 'sepa',
  pay_info: { type: 'sepa', name: 'M', account: 'DE00', note: '' },
  status,
  created_at: T0 + id,
  pay_until: T0 + id + 1_800_000,
  paid_at: status === 1 || status === 5 ? null : T0 + 10,
  completed_at: status === 3 ? T0 + 20 : null,
  cancelled_at: status === 5 ? T0 + 20 : null,
  cancel_reason: status === 5 ? 'buyer' : null,
  appeal: null,
  conversation_id: null,
  request_id: `r${id}`,
});

describe('the order list', () => {
  it('asks the server for one status per tab, or all', () => {
    expect(statusesOf('all')).toEqual([]);
    expect(statusesOf(4)).toEqual([4]);
  });

  it('takes the stream’s newer copies and new orders of its side and tab; rows stay where they are', () => {
    const loaded = [order(5, 1), order(3, 1)];
    const live = [order(5, 2), order(6, 1), order(7, 1, 'merchant'), order(8, 2), order(2, 1)];
    const rows = mergeOrders(loaded, live, false, belongsTo('buyer', 1));
    // 5 moved on to paid but stays; 6 is new in this tab; 7 is the other side's, 8 another tab's; 2 is older than
    // the loaded pages (it comes with "load more").
    expect(rows.map((o) => `${o.id}:${o.status}`)).toEqual(['6:1', '5:2', '3:1']);
    expect(mergeOrders(loaded, live, true, belongsTo('buyer', 1)).map((o) => o.id)).toEqual([6, 5, 3, 2]);
    expect(mergeOrders(loaded, null, true, belongsTo('buyer', 'all'))).toEqual(loaded);
  });
});

describe('an open order on an ad', () => {
  it('is the user’s order as buyer on that ad while it is paying, paid or under appeal', () => {
    const onAd = (o: C2cOrder, adId: number): C2cOrder => ({ ...o, ad_id: adId });
    expect(openOrderOn(1, null)).toBeNull();
    expect(openOrderOn(1, [])).toBeNull();
    // Another ad's, one as merchant, ended ones: none stops an order here.
    expect(openOrderOn(1, [onAd(order(4, 1), 2), order(5, 1, 'merchant'), order(6, 3), order(7, 5)])).toBeNull();
    for (const status of [1, 2, 4] as const) expect(openOrderOn(1, [order(6, 3), order(8, status)])?.id).toBe(8);
  });
});

describe('numbers', () => {
  it('formats fiat with cents, prices and coins exactly, in the user’s language', () => {
    expect(formatFiat('1234.5', 'de')).toBe('1.234,50');
    expect(formatFiat('1234.5', 'en')).toBe('1,234.50');
    expect(formatC2cPrice('61234.567891', 'de')).toBe('61.234,567891');
    expect(formatC2cPrice('60000', 'en')).toBe('60,000.00');
    expect(formatCoin('0.01000000', 'de', 8)).toBe('0,01');
    expect(formatCoin('0.12345678', 'en', 8)).toBe('0.12345678');
  });

  it('shows the time left as mm:ss, rounded up to the second', () => {
    expect(clockOf(30 * 60_000)).toBe('30:00');
    expect(clockOf(61_001)).toBe('01:02');
    expect(clockOf(0)).toBe('00:00');
    expect(clockOf(-5)).toBe('00:00');
  });
});
