import { describe, expect, it } from 'vitest';
import { type IeoOrder, type IeoPhase, type IeoProject, IPO_STATUS_OF_PHASE } from '../../../protocol/ieo';
import { formatCoin, formatShare, shareOfSupply, sharePercentForBar, splitDuration } from './format';
import { countByLabel, mergeOrders } from './orders';
import { checkQuantity, fullCost, projectStateAt } from './terms';
import { timeline } from './timeline';

// The IEO pages' own logic: the purchase checks (the server's keys in the server's order), the cost preview by the
// published rule, the exact share of the supply, the order list's merge with the stream, the overview counts, and the
// step list.

const project = { scale: 8, user_cap: '5000.00000000', ieo_price: '0.05' } as Pick<
  IeoProject,
  'scale' | 'user_cap' | 'ieo_price'
>;

const order = (id: number, phase: IeoPhase, extra: Partial<IeoOrder> = {}): IeoOrder => ({
  id,
  sn: `I${String(id).padStart(8, '0')}`,
  project_id: 1,
  coin: 'DEMO',
  name: 'Demo Token',
  description: '',
  scale: 8,
  listing_price: '0.08',
  ieo_price: '0.05',
  total_supply: '100000000',
  circulating_supply: '20000000',
  quantity: '100.00000000',
  allotment_quantity: null,
  pending_quantity: null,
  payment: null,
  success_pay: null,
  ipo_status: IPO_STATUS_OF_PHASE[phase],
  phase,
  apply_time: id * 1000,
  allotment_date: 10_000_000,
  pay_date: 20_000_000,
  listing_date: 20_000_000,
  lock_date: 30_000_000,
  paid_at: phase === 'paid' || phase === 'locked' || phase === 'unlocked' ? 15_000_000 : null,
  request_id: `r${id}`,
  ...extra,
});

describe('the purchase checks', () => {
  it('names the same problems as the server, in its order', () => {
    expect(checkQuantity('', project)).toEqual({ ok: false, problem: 'ieoQuantityRequired' });
    expect(checkQuantity('   ', project)).toEqual({ ok: false, problem: 'ieoQuantityRequired' });
    expect(checkQuantity('1e3', project)).toEqual({ ok: false, problem: 'amountInvalid' });
    expect(checkQuantity('-1', project)).toEqual({ ok: false, problem: 'amountInvalid' });
    expect(checkQuantity('1.000000001', project)).toEqual({ ok: false, problem: 'amountTooPrecise' });
    expect(checkQuantity('0.00000000', project)).toEqual({ ok: false, problem: 'amountNotPositive' });
    expect(checkQuantity('5000.00000001', project)).toEqual({ ok: false, problem: 'ieoAboveCap' });
    expect(checkQuantity('5000', project)).toEqual({ ok: true, units: 500_000_000_000n });
    expect(checkQuantity('0.00000001', project)).toEqual({ ok: true, units: 1n });
  });

  it('previews the cost if fully allotted by the rule: × the IEO price, rounded up to a USDT unit', () => {
    expect(fullCost(500_000_000_000n, project)).toBe('250.000000');
    // 0.00000001 × 0.05 = 0.0000000005 USDT: the user pays, so it rounds up to one unit.
    expect(fullCost(1n, project)).toBe('0.000001');
    expect(fullCost(123_456_789_012n, project)).toBe('61.728395');
  });

  it('moves a project on by its window times while the page is open', () => {
    const p = { state: 'upcoming' as const, starts_at: 100, ends_at: 200 };
    expect(projectStateAt(p, 99)).toBe('upcoming');
    expect(projectStateAt(p, 100)).toBe('subscribing');
    expect(projectStateAt(p, 200)).toBe('under_review');
    expect(projectStateAt({ ...p, state: 'subscribing' }, 200)).toBe('under_review');
    expect(projectStateAt({ ...p, state: 'sold_out' }, 300)).toBe('sold_out');
  });
});

describe('figures', () => {
  it('shows the subscribed share of the supply exactly, cut, past 100 % when oversubscribed', () => {
    expect(shareOfSupply('1.00000000', '3.00000000')).toBe('0.333333');
    expect(formatShare(shareOfSupply('1.00000000', '3.00000000'), 'en')).toBe('33.3333%');
    expect(formatShare(shareOfSupply('2.00000000', '3.00000000'), 'de')).toBe('66,6666\u00a0%');
    expect(formatShare(shareOfSupply('2500000.00000000', '1000000.00000000'), 'en')).toBe('250%');
    expect(shareOfSupply('5', '0')).toBe('0');
    expect(sharePercentForBar('2500000', '1000000')).toBe(100);
    expect(sharePercentForBar('999', '1000')).toBe(99);
  });

  it('shows coin quantities with every decimal they have, none when whole', () => {
    expect(formatCoin('5000.00000000', 'en')).toBe('5,000');
    expect(formatCoin('1234.56789012', 'de')).toBe('1.234,56789012');
  });

  it('splits time left into days and a clock', () => {
    expect(splitDuration(0)).toEqual({ days: 0, clock: '00:00:00' });
    expect(splitDuration(3_723_001)).toEqual({ days: 0, clock: '01:02:04' });
    expect(splitDuration(2 * 86_400_000 + 59_000)).toEqual({ days: 2, clock: '00:00:59' });
  });
});

describe('the order list', () => {
  it('takes the stream’s newer copies, and its new subscriptions above the loaded pages', () => {
    const loaded = [order(5, 'subscribed'), order(4, 'allotted')];
    const live = [order(6, 'subscribed'), order(5, 'allotted'), order(4, 'subscribed'), order(2, 'paid')];
    expect(mergeOrders(loaded, live, false).map((o) => `${o.id}:${o.phase}`)).toEqual([
      '6:subscribed',
      '5:allotted',
      '4:allotted',
    ]);
    // Everything loaded: what the stream knows below is shown too.
    expect(mergeOrders(loaded, live, true).map((o) => o.id)).toEqual([6, 5, 4, 2]);
    expect(mergeOrders(loaded, null, false)).toEqual(loaded);
  });

  it('counts the badges at server time: a due step is processing until the server confirms it', () => {
    const orders = [
      order(1, 'subscribed'),
      order(2, 'subscribed'),
      order(3, 'allotted'),
      order(4, 'lapsed'),
      order(5, 'unlocked'),
    ];
    const before = countByLabel(orders, 9_000_000);
    expect(Object.fromEntries(before)).toMatchObject({
      subscribed: 2,
      allotted: 1,
      fail: 1,
      success: 1,
      processing: 0,
    });
    const after = countByLabel(orders, 10_000_000);
    expect(Object.fromEntries(after)).toMatchObject({ subscribed: 0, processing: 2, allotted: 1 });
  });
});

describe('the step list', () => {
  const rows = (o: IeoOrder, step: Parameters<typeof timeline>[1]) =>
    timeline(o, step).map((r) => `${r.status}:${r.state}:${r.titleKey.replace('ieo.steps.', '')}`);

  it('marks where the subscription is, with SPEC’s numbers', () => {
    expect(rows(order(1, 'subscribed'), 'waitingForAllotment')).toEqual([
      '1:done:subscribed',
      '3:current:allotment',
      '4:upcoming:payment',
      '5:upcoming:listing',
      '6:upcoming:unlock',
    ]);
    expect(rows(order(1, 'failed'), 'allotmentFailed')).toEqual([
      '1:done:subscribed',
      '2:failed:allotFailed',
      '4:skipped:payment',
      '5:skipped:listing',
      '6:skipped:unlock',
    ]);
    expect(rows(order(1, 'lapsed'), 'lapsed').slice(2)).toEqual([
      '4:failed:payClosed',
      '5:skipped:listing',
      '6:skipped:unlock',
    ]);
    expect(rows(order(1, 'locked'), 'unlocking').slice(2)).toEqual([
      '4:done:paid',
      '5:done:listed',
      '6:processing:unlock',
    ]);
  });

  it('shows when it was paid once paid, and the deadline before', () => {
    expect(timeline(order(1, 'allotted'), 'allotted')[2]).toMatchObject({
      timeKey: 'ieo.steps.at.payBy',
      at: 20_000_000,
    });
    expect(timeline(order(1, 'paid'), 'paid')[2]).toMatchObject({ timeKey: 'ieo.steps.at.paidAt', at: 15_000_000 });
  });
});
