import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { InstrumentInfo } from '../../../../protocol/market';
import type { OptionContract } from '../../../../protocol/options';
import { i18n, loadNamespace, setI18nLanguage, startI18n } from '../../../lib/i18n';
import { apiAnswers, inRouter } from '../../../test-support/in-router';
import { RecentResults } from './RecentResults';

/**
 * Recent results show what a contract made or lost, not what it paid back: a lost 12 USDT contract is -12.00 USDT
 * (it paid back 0), a won one its gain; each row names the entry and exit prices at the instrument's tick.
 */

const instruments: InstrumentInfo[] = [
  {
    id: 1,
    symbol: 'BTC',
    name: 'Bitcoin',
    kind: 'coin',
    quote: 'USDT',
    tick_size: '0.01',
    price_scale: 2,
    qty_scale: 5,
  },
  {
    id: 9,
    symbol: 'TRX',
    name: 'Tron',
    kind: 'coin',
    quote: 'USDT',
    tick_size: '0.00001',
    price_scale: 5,
    qty_scale: 1,
  },
];

const contract = (over: Partial<OptionContract>): OptionContract => ({
  id: 1,
  symbol: 'BTC',
  direction: 'up',
  seconds: 30,
  ratio: '0.80',
  currency: 'USDT',
  stake: '12.000000',
  account: 'real',
  state: 'won',
  entry: { symbol: 'BTC', seq: 40, ts: 1_700_000_000_000, price: '65000.50' },
  expiry_ts: 1_700_000_030_000,
  exit: { symbol: 'BTC', seq: 160, ts: 1_700_000_029_750, price: '65012.25' },
  payout: '21.600000',
  request_id: 'r-1',
  created_at: 1_699_999_999_900,
  updated_at: 1_700_000_030_100,
  settled_at: 1_700_000_030_100,
  ...over,
});

const won = contract({});
/** Up on TRX, and the price fell by one tick: lost, so it paid back 0. */
const lost = contract({
  id: 2,
  symbol: 'TRX',
  entry: { symbol: 'TRX', seq: 7, ts: 1_700_000_000_000, price: '0.12345' },
  exit: { symbol: 'TRX', seq: 90, ts: 1_700_000_029_000, price: '0.12344' },
  state: 'lost',
  payout: '0.000000',
});
const flat = contract({
  id: 3,
  state: 'flat',
  exit: { symbol: 'BTC', seq: 161, ts: 1_700_000_029_900, price: '65000.50' },
  payout: '12.000000',
});
const refunded = contract({ id: 4, state: 'refunded', exit: null, payout: '12.000000' });
/** No entry tick within the wait: the stake was released. */
const cancelled = contract({
  id: 5,
  state: 'cancelled',
  entry: null,
  expiry_ts: null,
  exit: null,
  payout: '12.000000',
});

const nbsp = '\u00a0';

function show(contracts: OptionContract[]) {
  vi.stubGlobal(
    'fetch',
    apiAnswers({ 'coin/list': instruments, 'microtrade/lists': { contracts, next_before_id: null } }),
  );
  render(inRouter(() => <RecentResults book="real" />));
}

/** A row's entry, exit and result as shown, once the instrument list has given the row its price scale. */
async function rowOf(id: number) {
  const row = await screen.findByTestId(`result-${id}`);
  return {
    row,
    entry: within(row).getByTestId('result-entry'),
    exit: within(row).getByTestId('result-exit'),
    result: within(row).getByTestId('result-amount'),
  };
}

beforeAll(async () => {
  await startI18n('en');
  await i18n.changeLanguage('en');
  await loadNamespace('options');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('RecentResults', () => {
  it('shows a win as its gain with a plus, with entry and exit prices', async () => {
    show([won]);
    const { entry, exit, result } = await rowOf(1);
    expect(result.textContent).toBe(`+9.60${nbsp}USDT`);
    expect(result.className).toBe('option-gain');
    expect(entry.textContent).toBe('65,000.50');
    expect(exit.textContent).toBe('65,012.25');
  });

  it('shows a loss as the stake lost, -12.00 USDT, not the 0.00 it paid back', async () => {
    show([lost]);
    const { row, entry, exit, result } = await rowOf(2);
    expect(result.textContent).toBe(`-12.00${nbsp}USDT`);
    expect(result.className).toBe('option-loss');
    expect(row.textContent).not.toContain('0.00');
    // TRX moves by 0.00001: the digit that decided the contract is shown, once the instrument list has come.
    await vi.waitFor(() => expect(entry.textContent).toBe('0.12345'));
    expect(exit.textContent).toBe('0.12344');
  });

  it('names why a result is nothing: flat, refunded (no exit price) or cancelled (no entry either)', async () => {
    show([flat, refunded, cancelled]);
    expect((await rowOf(3)).result.textContent).toBe(`0.00${nbsp}USDT (flat)`);
    const refund = await rowOf(4);
    expect(refund.result.textContent).toBe(`0.00${nbsp}USDT (refunded)`);
    expect(refund.exit.textContent).toBe('–');
    const released = await rowOf(5);
    expect(released.result.textContent).toBe(`0.00${nbsp}USDT (cancelled)`);
    expect(released.entry.textContent).toBe('–');
  });

  it('reads naturally in German', async () => {
    await setI18nLanguage('de');
    try {
      show([lost, flat]);
      expect((await rowOf(2)).result.textContent).toBe(`-12,00${nbsp}USDT`);
      expect((await rowOf(3)).result.textContent).toBe(`0,00${nbsp}USDT (unverändert)`);
    } finally {
      await setI18nLanguage('en');
    }
  });
});
