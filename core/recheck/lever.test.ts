// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { LeverPosition } from '../../protocol/lever';
import { recheckLever } from './lever';
import { record, T0, tickOf } from './test-record';

/**
 * The lever re-check against a small record built with the published hash rules (one BTC tick per batch): a market
 * long of 10 lots (0.01 BTC) at 10x opened at batch 2's tick (100.00) and closed by its take-profit at batch 5's.
 * Numbers: IM 0.01 × 100 / 10 = 0.1; open fee 0.01 × 100 × 0.0005 = 0.0005; at 101.00 the P&L is 0.01 and the close
 * fee 0.000505 → 0.000505 (6 decimals).
 */
const ENTRY = tickOf(2, '100.00');
const EXIT = tickOf(5, '101.00');
const closed: LeverPosition = {
  id: 7,
  order_no: 'L00000007',
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
  entry_price: '100.00',
  close_offset_price: '101.00',
  profit_take_price: '101.00',
  stop_loss_price: null,
  initial_margin: '0.100000',
  additional_margin: '0.000000',
  amount: '1',
  commission: '0.001005',
  open_fee: '0.000500',
  close_fee: '0.000505',
  Liquidation_Price: '90.45',
  Liquidation_Time: null,
  floating_profit_or_loss: null,
  unrealized_pnl_percent: null,
  realized_pnl: '0.010000',
  realized_pnl_percent: '10.00',
  total_profit_or_loss: '0.008995',
  insurance: '0.000000',
  close_reason: 'take_profit',
  cancel_reason: null,
  entry: ENTRY,
  exit: EXIT,
  mark: null,
  open_position_time: T0 + 2100,
  time_to_close_position: T0 + 5100,
  request_id: 'r1',
  created_at: T0 + 1500,
  updated_at: T0 + 5100,
};

describe('recheckLever', () => {
  it('passes a true record: both ticks chained to the head, margin, trigger and money recomputed', async () => {
    const f = record({ 2: '100.00', 5: '101.00' }, 8);
    const result = await recheckLever(closed, 6, f);
    expect(result).toMatchObject({ ok: true, headId: 8, entryBatchId: 2, exitBatchId: 5 });
  });

  it('refuses an entry that is not the first tick after acceptance', async () => {
    const f = record({ 2: '100.00', 5: '101.00' }, 8);
    // Accepted before batch 1's tick: batch 1's tick came after acceptance, so batch 2's is not the entry.
    expect(await recheckLever({ ...closed, created_at: T0 + 500 }, 6, f)).toEqual({
      ok: false,
      reason: 'entry_differs',
    });
  });

  it('refuses an exit that does not reach the take-profit, and money that is not the rule’s', async () => {
    const f = record({ 2: '100.00', 5: '101.00' }, 8);
    expect(await recheckLever({ ...closed, profit_take_price: '101.01' }, 6, f)).toEqual({
      ok: false,
      reason: 'trigger_differs',
    });
    expect(await recheckLever({ ...closed, realized_pnl: '0.010001' }, 6, f)).toEqual({
      ok: false,
      reason: 'money_differs',
    });
    expect(await recheckLever({ ...closed, initial_margin: '0.099999' }, 6, f)).toEqual({
      ok: false,
      reason: 'margin_differs',
    });
    // The fees and net a result shows: split otherwise than the rule, or a net that is not P&L minus fees.
    for (const shown of [
      { open_fee: '0.000505', close_fee: '0.000500' },
      { close_fee: '0.000504' },
      { total_profit_or_loss: '0.009000' },
    ]) {
      expect(await recheckLever({ ...closed, ...shown }, 6, f), JSON.stringify(shown)).toEqual({
        ok: false,
        reason: 'money_differs',
      });
    }
  });

  it('refuses a tick the record does not hold as posted', async () => {
    const f = record({ 2: '100.00', 5: '101.00' }, 8);
    expect(await recheckLever({ ...closed, exit: { ...EXIT, price: '101.50' } }, 6, f)).toEqual({
      ok: false,
      reason: 'tick_differs',
    });
    f.missing.add(EXIT.seq);
    expect(await recheckLever(closed, 6, f)).toEqual({ ok: false, reason: 'not_sealed' });
  });

  it('checks an isolated liquidation against the liquidation price recomputed from entry and margin', async () => {
    // (1 − 0.1) / (0.01 × 0.995) = 90.452… → 90.45; the tick at 90.45 reaches it. Loss 0.0955, fee 0.00045225 →
    // 0.000453; the margin 0.1 covers both; 0.004047 is left for the fund.
    const f = record({ 2: '100.00', 5: '90.45' }, 8);
    const liquidated: LeverPosition = {
      ...closed,
      close_reason: 'liquidation',
      profit_take_price: null,
      exit: tickOf(5, '90.45'),
      close_offset_price: '90.45',
      realized_pnl: '-0.095500',
      commission: '0.000953',
      close_fee: '0.000453',
      insurance: '0.004047',
      // The whole margin and the open fee: −0.0955 − 0.0005 − 0.000453 − 0.004047.
      total_profit_or_loss: '-0.100500',
    };
    expect(await recheckLever(liquidated, 6, f)).toMatchObject({ ok: true });
    expect(await recheckLever({ ...liquidated, Liquidation_Price: '90.44' }, 6, f)).toEqual({
      ok: false,
      reason: 'trigger_differs',
    });
  });
});

/**
 * Partial closes (RULES "Partial close"): a long of 7 lots (0.007 BTC) at 10x opened at batch 2's tick (100.00): IM
 * 0.07, open fee 0.00035; 0.000011 added. 3 lots closed off by the user at batch 5's tick (101.00): the part holds
 * ⌊0.070011 × 3/7⌋ = 0.030004 (0.03 initial, 0.000004 added) and ⌊0.00035 × 3/7⌋ = 0.00015 of the open fee; P&L 0.003,
 * close fee 0.003 × 101 × 0.0005 = 0.0001515 → 0.000152. The rest (4 lots: 0.04 + 0.000007, open fee 0.0002) closes
 * at the same tick later in the test's story: P&L 0.004, fee 0.000202.
 */
const part: LeverPosition = {
  ...closed,
  id: 9,
  order_no: 'L00000009',
  lots: 3,
  quantity: '0.003',
  amount: '0.3',
  profit_take_price: null,
  close_reason: 'user',
  initial_margin: '0.030000',
  additional_margin: '0.000004',
  open_fee: '0.000150',
  close_fee: '0.000152',
  commission: '0.000302',
  realized_pnl: '0.003000',
  total_profit_or_loss: '0.002698',
  request_id: 'close-1',
  part_of: 7,
  opened_lots: 7,
  earlier_parts: [],
  part_basis: { lots: 7, initial_margin: '0.070000', additional_margin: '0.000011', open_fee: '0.000350' },
};
const rest: LeverPosition = {
  ...closed,
  lots: 4,
  quantity: '0.004',
  amount: '0.4',
  profit_take_price: null,
  close_reason: 'user',
  initial_margin: '0.040000',
  additional_margin: '0.000007',
  open_fee: '0.000200',
  close_fee: '0.000202',
  commission: '0.000402',
  realized_pnl: '0.004000',
  total_profit_or_loss: '0.003598',
  part_of: null,
  opened_lots: 7,
  earlier_parts: [3],
  part_basis: null,
};

describe('recheckLever: partial closes', () => {
  it('passes a part and the rest of a true record: shares by the rule, the basis replayed from the entry tick', async () => {
    const f = record({ 2: '100.00', 5: '101.00' }, 8);
    expect(await recheckLever(part, 6, f)).toMatchObject({ ok: true, entryBatchId: 2, exitBatchId: 5 });
    expect(await recheckLever(rest, 6, f)).toMatchObject({ ok: true, entryBatchId: 2, exitBatchId: 5 });
    // A second part, 1 of the 4 left: ⌊0.040007 / 4⌋ = 0.010001 (0.01 initial, 0.000001 added), open fee 0.00005;
    // P&L 0.001, fee 0.0000505 → 0.000051.
    const second: LeverPosition = {
      ...part,
      lots: 1,
      quantity: '0.001',
      amount: '0.1',
      initial_margin: '0.010000',
      additional_margin: '0.000001',
      open_fee: '0.000050',
      close_fee: '0.000051',
      commission: '0.000101',
      realized_pnl: '0.001000',
      total_profit_or_loss: '0.000899',
      earlier_parts: [3],
      part_basis: { lots: 4, initial_margin: '0.040000', additional_margin: '0.000007', open_fee: '0.000200' },
    };
    expect(await recheckLever(second, 6, f)).toMatchObject({ ok: true });
  });

  it('refuses shares that are not the rule’s, a basis the entry tick does not give, and parts that do not add up', async () => {
    const f = record({ 2: '100.00', 5: '101.00' }, 8);
    const wrong: [string, LeverPosition][] = [
      // Rounded the other way: the user would receive more than ⌊M × k / n⌋.
      ['added share', { ...part, additional_margin: '0.000005' }],
      ['initial share', { ...part, initial_margin: '0.030001', additional_margin: '0.000003' }],
      [
        'basis margin',
        {
          ...part,
          part_basis: { ...(part.part_basis as NonNullable<LeverPosition['part_basis']>), initial_margin: '0.070001' },
        },
      ],
      [
        'basis lots',
        { ...part, part_basis: { ...(part.part_basis as NonNullable<LeverPosition['part_basis']>), lots: 8 } },
      ],
      ['no basis', { ...part, part_basis: null }],
      ['a part by a trigger', { ...part, close_reason: 'take_profit', profit_take_price: '101.00' }],
      ['parts that leave other lots', { ...rest, earlier_parts: [2] }],
      ['no parts told', { ...rest, earlier_parts: [] }],
      ['more opened than told', { ...rest, opened_lots: 8 }],
    ];
    for (const [what, p] of wrong) {
      expect(await recheckLever(p, 6, f), what).toEqual({ ok: false, reason: 'margin_differs' });
    }
    // The open fee share is the rule's too: shown otherwise, the fees do not add up.
    expect(await recheckLever({ ...part, open_fee: '0.000151', commission: '0.000303' }, 6, f)).toEqual({
      ok: false,
      reason: 'money_differs',
    });
  });
});
