import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LeverPosition } from '../../../../protocol/lever';
import { i18n, loadNamespace, setI18nLanguage, startI18n } from '../../../lib/i18n';
import { apiAnswers, inRouter } from '../../../test-support/in-router';
import HistoryList from './HistoryList';

/**
 * A closed position's row shows its realised P&L with the fees it paid and the net (the server's figures, cut to two
 * decimals with sign and unit); a liquidation also what went to the insurance fund, so that the lines add up to
 * what the user lost. The figures are the integration test's (10 lots of 0.001 BTC, 10x at 60,000.00).
 */

const T0 = 1_700_000_000_000;
const base: LeverPosition = {
  id: 1,
  order_no: 'L00000001',
  symbol: 'BTC',
  direction: 'long',
  type: 'market',
  margin_mode: 'isolated',
  account_type: 'simulator',
  status: 3,
  phase: 'closed',
  lots: 10,
  quantity: '0.01',
  contract_size: '0.001',
  leverage: 10,
  mmr: '0.005',
  fee_rate: '0.0005',
  limit_price: null,
  entry_price: '60000.00',
  close_offset_price: '61000.00',
  profit_take_price: '61000.00',
  stop_loss_price: null,
  initial_margin: '60.000000',
  additional_margin: '0.000000',
  amount: '600',
  commission: '0.605000',
  open_fee: '0.300000',
  close_fee: '0.305000',
  Liquidation_Price: '54271.35',
  Liquidation_Time: null,
  floating_profit_or_loss: null,
  unrealized_pnl_percent: null,
  realized_pnl: '10.000000',
  realized_pnl_percent: '16.66',
  total_profit_or_loss: '9.395000',
  insurance: '0.000000',
  close_reason: 'take_profit',
  cancel_reason: null,
  entry: { symbol: 'BTC', seq: 10, ts: T0 + 100, price: '60000.00' },
  exit: { symbol: 'BTC', seq: 90, ts: T0 + 9_000, price: '61000.00' },
  mark: null,
  open_position_time: T0 + 100,
  time_to_close_position: T0 + 9_000,
  request_id: 'r-1',
  created_at: T0,
  updated_at: T0 + 9_000,
};

/** Liquidated with 10 of added margin at 53,266.33: the whole 70 of margin and the open fee are gone. */
const liquidated: LeverPosition = {
  ...base,
  id: 2,
  order_no: 'L00000002',
  additional_margin: '10.000000',
  close_offset_price: '53266.33',
  profit_take_price: null,
  commission: '0.566332',
  close_fee: '0.266332',
  realized_pnl: '-67.336700',
  total_profit_or_loss: '-70.300000',
  insurance: '2.396968',
  close_reason: 'liquidation',
  Liquidation_Time: T0 + 9_000,
};

/** A short gapped past its liquidation price: the fund bore 4 beyond the 6 of margin. */
const gapped: LeverPosition = {
  ...liquidated,
  id: 3,
  order_no: 'L00000003',
  direction: 'short',
  leverage: 100,
  close_offset_price: '61000.00',
  initial_margin: '6.000000',
  additional_margin: '0.000000',
  commission: '0.300000',
  close_fee: '0.000000',
  realized_pnl: '-10.000000',
  total_profit_or_loss: '-6.300000',
  insurance: '-4.000000',
};

const cancelled: LeverPosition = {
  ...base,
  id: 4,
  order_no: 'L00000004',
  type: 'limit',
  status: 4,
  phase: 'cancelled',
  limit_price: '59000.00',
  entry_price: null,
  close_offset_price: null,
  initial_margin: null,
  commission: '0.000000',
  open_fee: null,
  close_fee: null,
  realized_pnl: null,
  realized_pnl_percent: null,
  total_profit_or_loss: null,
  insurance: null,
  close_reason: null,
  cancel_reason: 'user',
  entry: null,
  exit: null,
};

const nbsp = '\u00a0';

function show(positions: LeverPosition[]) {
  vi.stubGlobal('fetch', apiAnswers({ 'lever/my_trade': { positions, next_before_id: null } }));
  render(inRouter(() => <HistoryList book="simulator" scaleOf={() => 2} />));
}

/** The result lines of a row, label and amount as shown. */
async function resultOf(id: number): Promise<[string, string][]> {
  const row = await screen.findByTestId(`history-${id}`);
  return [...within(row).getByTestId('history-result').querySelectorAll('div')].map((line) => [
    line.querySelector('dt')?.textContent ?? '',
    line.querySelector('dd')?.textContent ?? '',
  ]);
}

beforeAll(async () => {
  await startI18n('en');
  await i18n.changeLanguage('en');
  await loadNamespace('lever');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('HistoryList', () => {
  it('shows a closed position’s realised P&L, its open and close fees and the net, signed, with the unit', async () => {
    show([base]);
    expect(await resultOf(1)).toEqual([
      ['Realised P&L', `+10.00${nbsp}USDT`],
      ['Open fee', `-0.30${nbsp}USDT`],
      // 0.305 and 9.395 are cut, never rounded up: a list never shows more than there is.
      ['Close fee', `-0.30${nbsp}USDT`],
      ['Net result', `+9.39${nbsp}USDT`],
    ]);
    const row = screen.getByTestId('history-1');
    expect(within(row).getByTestId('result-pnl').querySelector('dd')?.className).toBe('lever-up');
    expect(within(row).getByTestId('result-net').querySelector('dd')?.className).toBe('lever-up');
  });

  it('names what a liquidation gave the insurance fund, or the gap the fund bore, so the net is what was lost', async () => {
    show([liquidated, gapped]);
    expect(await resultOf(2)).toEqual([
      ['Realised P&L', `-67.33${nbsp}USDT`],
      ['Open fee', `-0.30${nbsp}USDT`],
      ['Close fee', `-0.26${nbsp}USDT`],
      ['To the insurance fund', `-2.39${nbsp}USDT`],
      ['Net result', `-70.30${nbsp}USDT`],
    ]);
    expect(await resultOf(3)).toEqual([
      ['Realised P&L', `-10.00${nbsp}USDT`],
      ['Open fee', `-0.30${nbsp}USDT`],
      ['Close fee', `0.00${nbsp}USDT`],
      ['Covered by the insurance fund', `+4.00${nbsp}USDT`],
      ['Net result', `-6.30${nbsp}USDT`],
    ]);
  });

  it('names the gap the fund bore on a close by the user too (a tick past the liquidation price), so the lines add up', async () => {
    const closedAtGap: LeverPosition = {
      ...gapped,
      id: 5,
      order_no: 'L00000005',
      close_reason: 'user',
      Liquidation_Time: null,
    };
    show([closedAtGap]);
    expect(await resultOf(5)).toEqual([
      ['Realised P&L', `-10.00${nbsp}USDT`],
      ['Open fee', `-0.30${nbsp}USDT`],
      ['Close fee', `0.00${nbsp}USDT`],
      ['Covered by the insurance fund', `+4.00${nbsp}USDT`],
      ['Net result', `-6.30${nbsp}USDT`],
    ]);
  });

  it('shows no result for an order cancelled before it opened', async () => {
    show([cancelled]);
    const row = await screen.findByTestId('history-4');
    expect(within(row).queryByTestId('history-result')).toBeNull();
  });

  it('reads naturally in German', async () => {
    await setI18nLanguage('de');
    try {
      show([base]);
      expect(await resultOf(1)).toEqual([
        ['Realisierter G&V', `+10,00${nbsp}USDT`],
        ['Eröffnungsgebühr', `-0,30${nbsp}USDT`],
        ['Schließungsgebühr', `-0,30${nbsp}USDT`],
        ['Netto-Ergebnis', `+9,39${nbsp}USDT`],
      ]);
    } finally {
      await setI18nLanguage('en');
    }
  });
});
