// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { SpotConfig } from '../../../core/api/spot';
import { draftOf, estimate, pairTerms, percentOf, type Ticket, ticketProblem } from './ticket';

const config: SpotConfig = {
  fee_rate: '0.001',
  min_value: '5',
  price_band: '0.02',
  quote_scale: 6,
  pairs: [{ symbol: 'BTC', quote: 'USDT', price_step: '0.01', qty_step: '0.00001', price_scale: 2, qty_scale: 5 }],
};
const p = pairTerms(config, 'BTC')!;
const ticket = (t: Partial<Ticket>): Ticket => ({
  side: 'buy',
  type: 'market',
  mode: 'quantity',
  qty: '',
  amount: '',
  price: '',
  ...t,
});

describe('the ticket estimate', () => {
  it('a buy pays value plus the fee rounded up; a sell receives value minus the fee', () => {
    expect(estimate(ticket({ qty: '0.01' }), '50000.00', p)).toEqual({
      qty: '0.01000',
      value: '500.000000',
      fee: '0.500000',
      total: '500.500000',
    });
    expect(estimate(ticket({ side: 'sell', qty: '0.01' }), '50000.00', p)?.total).toBe('499.500000');
    // A limit is estimated at its own price.
    expect(estimate(ticket({ type: 'limit', qty: '0.01', price: '40000' }), '50000.00', p)?.value).toBe('400.000000');
  });

  it('a market buy by amount buys the most the amount pays for, fee included', () => {
    const e = estimate(ticket({ mode: 'amount', amount: '100' }), '50000.00', p)!;
    expect(e.qty).toBe('0.00199');
    expect(Number(e.total)).toBeLessThanOrEqual(100);
  });

  it('is empty while the quantity or the price is missing', () => {
    expect(estimate(ticket({}), '50000.00', p)).toBeNull();
    expect(estimate(ticket({ qty: '0.01' }), null, p)).toBeNull();
  });
});

describe('percent of available', () => {
  const usdt = { units: 1_000_000_000n, scale: 6 }; // 1000 USDT
  it('a sell takes the share of the coin, cut to the quantity step', () => {
    expect(percentOf(25, ticket({ side: 'sell' }), { units: 12_345_678n, scale: 8 }, '1', p)).toBe('0.03086');
  });
  it('a buy by amount takes the share of the USDT', () => {
    expect(percentOf(50, ticket({ mode: 'amount' }), usdt, '50000.00', p)).toBe('500.000000');
  });
  it('a market buy by quantity fits its hold at the band price into the share', () => {
    // 100% of 1000 USDT at 51000 (50000 + 2%) with 0.1% fee: 0.01958 BTC.
    expect(percentOf(100, ticket({}), usdt, '50000.00', p)).toBe('0.01958');
  });
  it('nothing fits: empty', () => {
    expect(percentOf(25, ticket({}), { units: 0n, scale: 6 }, '50000.00', p)).toBe('');
  });
});

describe('ticket problems (SPEC 5 "Spot")', () => {
  const rich = 10_000_000_000n;
  it('asks for what is missing, by side and kind', () => {
    expect(ticketProblem(ticket({}), '50000', rich, p)?.key).toBe('buyQuantityRequired');
    expect(ticketProblem(ticket({ side: 'sell' }), '50000', rich, p)?.key).toBe('soldQuantityRequired');
    expect(ticketProblem(ticket({ mode: 'amount' }), '50000', rich, p)?.key).toBe('invalidPurchase');
    expect(ticketProblem(ticket({ type: 'limit', qty: '0.01' }), '50000', rich, p)?.key).toBe('limitPriceRequired');
  });
  it('checks steps, the minimum value and the balance', () => {
    expect(ticketProblem(ticket({ qty: '0.000001' }), '50000', rich, p)?.key).toBe('spotQtyStep');
    expect(ticketProblem(ticket({ type: 'limit', qty: '0.01', price: '1.001' }), '50000', rich, p)?.key).toBe(
      'spotPriceStep',
    );
    expect(ticketProblem(ticket({ qty: '0.00001' }), '50000', rich, p)?.key).toBe('spotMinValue');
    expect(ticketProblem(ticket({ qty: '0.01' }), '50000', 0n, p)?.key).toBe('availableZero');
    expect(ticketProblem(ticket({ qty: '0.01' }), '50000', 100_000_000n, p)?.key).toBe('insufficientBalance');
    expect(ticketProblem(ticket({ side: 'sell', qty: '0.01' }), '50000', 100n, p)?.key).toBe('insufficientSellable');
    expect(ticketProblem(ticket({ qty: '0.01' }), '50000', rich, p)).toBeNull();
  });
  it('sends only the fields the order takes', () => {
    expect(draftOf(ticket({ mode: 'amount', amount: '100', qty: '1' }), 'BTC')).toEqual({
      symbol: 'BTC',
      side: 'buy',
      type: 'market',
      mode: 'amount',
      amount: '100',
    });
    expect(draftOf(ticket({ side: 'sell', type: 'limit', qty: '1', price: '2', mode: 'amount' }), 'BTC')).toEqual({
      symbol: 'BTC',
      side: 'sell',
      type: 'limit',
      mode: 'quantity',
      qty: '1',
      price: '2',
    });
  });
});
