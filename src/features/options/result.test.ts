import { describe, expect, it } from 'vitest';
import type { OptionContract } from '../../../protocol/options';
import { contractProfit } from './result';

const contract = (over: Partial<OptionContract>): OptionContract => ({
  id: 1,
  symbol: 'BTC',
  direction: 'up',
  seconds: 60,
  ratio: '0.8',
  currency: 'USDT',
  stake: '12.000000',
  account: 'simulator',
  state: 'running',
  entry: null,
  expiry_ts: null,
  exit: null,
  payout: null,
  request_id: 'r',
  created_at: 0,
  updated_at: 0,
  settled_at: null,
  ...over,
});

describe('an option contract as a result', () => {
  it('is what the settlement paid back less the stake, whatever decimals either carries', () => {
    expect(contractProfit(contract({ state: 'won', payout: '21.600000' }))).toBe('9.600000');
    expect(contractProfit(contract({ state: 'lost', payout: '0' }))).toBe('-12.000000');
    // A stake sent without trailing zeros and a payout with them: the wider scale is used, nothing is guessed.
    expect(contractProfit(contract({ state: 'won', stake: '12', payout: '21.59' }))).toBe('9.59');
    expect(contractProfit(contract({ state: 'flat', payout: '12.000000' }))).toBe('0.000000');
    expect(contractProfit(contract({ state: 'cancelled', payout: '12.000000' }))).toBe('0.000000');
  });

  it('is nothing while the contract is open', () => {
    expect(contractProfit(contract({ state: 'running' }))).toBeNull();
    expect(contractProfit(contract({ state: 'waiting', payout: null }))).toBeNull();
  });
});
