// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { LeverInstrument, LeverPosition } from '../../../protocol/lever';
import {
  closeEstimate,
  draftOf,
  type LeverTicket,
  liquidationAfterTopUp,
  reverseEstimate,
  ticketEstimate,
  ticketProblem,
} from './ticket';

const btc: LeverInstrument = {
  symbol: 'BTC',
  contract_size: '0.001',
  leverages: [1, 2, 5, 10, 20, 50, 100],
  mmr: '0.005',
  fee_rate: '0.0005',
  price_scale: 2,
  tick_size: '0.01',
};

const ticket = (extra: Partial<LeverTicket> = {}): LeverTicket => ({
  side: 'long',
  type: 'market',
  marginMode: 'isolated',
  leverage: 10,
  lots: '2',
  price: '',
  takeProfitOn: false,
  takeProfit: '',
  stopLossOn: false,
  stopLoss: '',
  ...extra,
});

const problem = (t: LeverTicket, available: string | null = '1000') =>
  ticketProblem(t, btc, 6, '60000', available)?.key ?? null;

describe('the lever ticket checks (SPEC 5 "Lever", RULES "Lever")', () => {
  it('names the first problem: lots required, whole and at least 1', () => {
    expect(problem(ticket({ lots: '' }))).toBe('leverLotsRequired');
    expect(problem(ticket({ lots: '0' }))).toBe('leverLotsInvalid');
    expect(problem(ticket({ lots: '1.5' }))).toBe('leverLotsInvalid');
    expect(problem(ticket({ lots: '-1' }))).toBe('leverLotsInvalid');
    expect(problem(ticket({ lots: '1' }))).toBeNull();
  });

  it('needs a limit price on the tick for a limit order', () => {
    expect(problem(ticket({ type: 'limit', price: '' }))).toBe('leverPriceRequired');
    expect(problem(ticket({ type: 'limit', price: '59999.999' }))).toBe('leverPriceInvalid');
    expect(problem(ticket({ type: 'limit', price: '59000' }))).toBeNull();
  });

  it('needs the price of a switched-on take-profit or stop-loss, on the right side', () => {
    expect(ticketProblem(ticket({ takeProfitOn: true }), btc, 6, '60000', '1000')).toEqual({
      key: 'leverStopRequired',
      field: 'take_profit',
    });
    expect(problem(ticket({ stopLossOn: true }))).toBe('leverStopRequired');
    expect(problem(ticket({ takeProfitOn: true, takeProfit: 'x' }))).toBe('leverStopPriceInvalid');
    expect(problem(ticket({ takeProfitOn: true, takeProfit: '59000' }))).toBe('leverTakeProfitSide');
    expect(problem(ticket({ stopLossOn: true, stopLoss: '61000' }))).toBe('leverStopLossSide');
    // 10x long at 60,000: LP ≈ 54,271; a stop-loss below it would never fire.
    expect(problem(ticket({ stopLossOn: true, stopLoss: '54000' }))).toBe('leverStopLossBeyondLiquidation');
    expect(
      problem(ticket({ takeProfitOn: true, takeProfit: '61000', stopLossOn: true, stopLoss: '59000' })),
    ).toBeNull();
    // A short mirrors it; a switched-off field is not looked at.
    expect(problem(ticket({ side: 'short', takeProfitOn: true, takeProfit: '59000' }))).toBeNull();
    expect(problem(ticket({ takeProfitOn: false, takeProfit: 'x' }))).toBeNull();
  });

  it('refuses margin and fee beyond the available balance, and passes while it is loading', () => {
    // 2 lots × 0.001 × 60,000 = 120 notional: 12 margin at 10x and a 0.06 fee.
    expect(problem(ticket(), '12.06')).toBeNull();
    expect(problem(ticket(), '12.059999')).toBe('insufficientBalance');
    expect(problem(ticket(), null)).toBeNull();
  });
});

describe('the estimate shown before confirming', () => {
  it('is the margin and open fee at the last price, with the isolated liquidation price', () => {
    expect(ticketEstimate(ticket(), btc, 6, '60000')).toEqual({
      price: '60000.00',
      at: 'last',
      margin: '12.000000',
      fee: '0.060000',
      total: '12.060000',
      liquidationPrice: '54271.35',
    });
  });

  it('uses the limit price for a limit order and has no fixed LP for cross', () => {
    const e = ticketEstimate(
      ticket({ type: 'limit', price: '50000', marginMode: 'cross', leverage: 100 }),
      btc,
      6,
      '1',
    );
    expect(e).toMatchObject({ price: '50000.00', at: 'limit', margin: '1.000000', fee: '0.050000' });
    expect(e?.liquidationPrice).toBeNull();
  });

  it('is missing until lots and a price read', () => {
    expect(ticketEstimate(ticket({ lots: '' }), btc, 6, '60000')).toBeNull();
    expect(ticketEstimate(ticket(), btc, 6, null)).toBeNull();
    expect(ticketEstimate(ticket({ leverage: 3 }), btc, 6, '60000')).toBeNull();
  });
});

describe('the draft and the add-margin preview', () => {
  it('sends only the fields switched on', () => {
    expect(draftOf(ticket(), 'BTC', 'simulator')).toEqual({
      symbol: 'BTC',
      side: 'long',
      type: 'market',
      margin_mode: 'isolated',
      lots: '2',
      leverage: '10',
      account: 'simulator',
    });
    const full = ticket({ type: 'limit', price: '59000', takeProfitOn: true, takeProfit: '62000' });
    expect(draftOf(full, 'BTC', 'real')).toMatchObject({ price: '59000', take_profit: '62000' });
    expect(draftOf(full, 'BTC', 'real')).not.toHaveProperty('stop_loss');
  });

  it('moves a long LP down and a short LP up by ΔM / (Q × (1 ∓ MMR))', () => {
    const held = {
      direction: 'long',
      lots: 1000,
      entry_price: '100000.00',
      initial_margin: '5000.000000',
      additional_margin: '0',
      contract_size: '0.001',
      mmr: '0.004',
      fee_rate: '0.0005',
    } as LeverPosition;
    // RULES' vector: Q = 1 at 100,000 with WB 5,000 and MMR 0.4 % → 95,381.52; 1,000 more → 94,377.51.
    expect(liquidationAfterTopUp(held, 2, 6, '0.000001')).toBe('95381.52');
    expect(liquidationAfterTopUp(held, 2, 6, '1000')).toBe('94377.51');
    expect(liquidationAfterTopUp({ ...held, direction: 'short' }, 2, 6, '1000')).toBe('105577.69');
    expect(liquidationAfterTopUp(held, 2, 6, '0')).toBeNull();
    expect(liquidationAfterTopUp(held, 2, 6, 'abc')).toBeNull();
  });
});

describe('the reverse sheet (RULES "Reverse")', () => {
  const long = {
    direction: 'long',
    margin_mode: 'isolated',
    leverage: 10,
    lots: 10,
    entry_price: '60000.00',
    contract_size: '0.001',
    mmr: '0.005',
    fee_rate: '0.0005',
  } as LeverPosition;

  it('closes all lots at the last price with the rules’ P&L and fee, and opens them short at that price', () => {
    // P&L 0.01 × 1,000 = 10; fee 0.01 × 61,000 × 0.0005 = 0.305 on both sides.
    expect(closeEstimate(long, 10n, '61000.00', 2, 6)).toEqual({ pnl: '10.000000', fee: '0.305000' });
    // The short: IM 0.01 × 61,000 / 10 = 61; LP (610 + 61) / (0.01 × 1.005) = 66,766.169… → 66,766.17, up for a short.
    expect(reverseEstimate(long, 2, 6, '61000.00')).toEqual({
      price: '61000.00',
      at: 'last',
      margin: '61.000000',
      fee: '0.305000',
      total: '61.305000',
      liquidationPrice: '66766.17',
    });
    // A short reverses into a long: LP (610 − 61) / (0.01 × 0.995) = 55,175.879… → 55,175.87, down for a long. Cross
    // has no LP of its own; no price, no estimate.
    expect(reverseEstimate({ ...long, direction: 'short' }, 2, 6, '61000.00')?.liquidationPrice).toBe('55175.87');
    expect(reverseEstimate({ ...long, margin_mode: 'cross' }, 2, 6, '61000.00')?.liquidationPrice).toBeNull();
    expect(reverseEstimate(long, 2, 6, null)).toBeNull();
    expect(closeEstimate(long, 10n, null, 2, 6)).toBeNull();
  });
});
