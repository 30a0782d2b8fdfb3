import { describe, expect, it } from 'vitest';
import type { OptionCurrencyTerms } from '../../../protocol/options';
import { draftOf, ticketProblem } from './ticket';

const terms: OptionCurrencyTerms = {
  currency: 'USDT',
  scale: 6,
  periods: [
    { seconds: 30, ratio: '0.80', min_stake: '10' },
    { seconds: 60, ratio: '0.82', min_stake: '10' },
  ],
};

describe('the option ticket checks (SPEC 5 "Option", in order)', () => {
  it('names the first problem: period, stake, step, minimum, balance', () => {
    expect(ticketProblem({ seconds: null, stake: '' }, terms, '100')?.key).toBe('optionPeriodRequired');
    expect(ticketProblem({ seconds: 45, stake: '10' }, terms, '100')?.key).toBe('optionPeriodRequired');
    expect(ticketProblem({ seconds: 30, stake: '' }, terms, '100')?.key).toBe('optionStakeRequired');
    expect(ticketProblem({ seconds: 30, stake: '1.0000001' }, terms, '100')?.key).toBe('optionStakeInvalid');
    expect(ticketProblem({ seconds: 30, stake: 'abc' }, terms, '100')?.key).toBe('optionStakeInvalid');
    expect(ticketProblem({ seconds: 30, stake: '9.999999' }, terms, '100')).toMatchObject({
      key: 'optionStakeBelowMin',
      values: { min: '10' },
    });
    expect(ticketProblem({ seconds: 30, stake: '100.000001' }, terms, '100')?.key).toBe('insufficientBalance');
  });

  it('passes a stake at the minimum and at the whole balance, and while the balance is still loading', () => {
    expect(ticketProblem({ seconds: 30, stake: '10' }, terms, '100')).toBeNull();
    expect(ticketProblem({ seconds: 60, stake: '100' }, terms, '100')).toBeNull();
    expect(ticketProblem({ seconds: 30, stake: '50' }, terms, null)).toBeNull();
  });

  it('builds the draft the machine sends', () => {
    expect(draftOf({ seconds: 30, stake: '10' }, 'BTC', 'up', 'simulator', 'USDT')).toEqual({
      symbol: 'BTC',
      direction: 'up',
      seconds: '30',
      stake: '10',
      currency: 'USDT',
      account: 'simulator',
    });
  });
});
