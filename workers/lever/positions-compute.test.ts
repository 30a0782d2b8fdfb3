// @vitest-environment node
import * as Comlink from 'comlink';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LeverPosition } from '../../protocol/lever';
import {
  crossLiquidationPrice,
  isolatedLiquidationPrice,
  type LeverTerms,
  liquidationDistanceText,
  maintenanceMarginExact,
  marginRatioText,
  pnlUnits,
  roeText,
  unrealisedPnlExact,
} from '../../protocol/rules/lever';
import { fromUnits } from '../../protocol/rules/spot';
import { connectPositions, createInThreadPositions } from './positions';
import {
  DANGER_LIQUIDATION_PERCENT,
  NEAR_LIQUIDATION_PERCENT,
  type PositionFigures,
  PositionsCompute,
  type PositionsUpdate,
  positionsApi,
} from './positions-compute';

/** A wire position (protocol LeverPosition) holding one lot of size 1 at 100,000 with 5,000 margin: RULES' vector. */
function wire(over: Partial<LeverPosition>): LeverPosition {
  return {
    id: 1,
    order_no: 'L1',
    symbol: 'UNITUSDT',
    direction: 'long',
    type: 'market',
    margin_mode: 'isolated',
    account_type: 'real',
    status: 1,
    phase: 'holding',
    lots: 1,
    quantity: '1',
    contract_size: '1',
    leverage: 20,
    mmr: '0.004',
    fee_rate: '0.0005',
    limit_price: null,
    entry_price: '100000.00',
    close_offset_price: null,
    profit_take_price: null,
    stop_loss_price: null,
    initial_margin: '5000',
    additional_margin: '0',
    amount: '100000',
    commission: '0',
    open_fee: '0',
    close_fee: null,
    Liquidation_Price: null,
    Liquidation_Time: null,
    floating_profit_or_loss: null,
    unrealized_pnl_percent: null,
    realized_pnl: null,
    realized_pnl_percent: null,
    total_profit_or_loss: null,
    insurance: null,
    close_reason: null,
    cancel_reason: null,
    entry: null,
    exit: null,
    mark: null,
    open_position_time: 0,
    time_to_close_position: null,
    request_id: 'r1',
    created_at: 0,
    updated_at: 0,
    ...over,
  };
}

const INSTRUMENTS = [
  { symbol: 'UNITUSDT', price_scale: 2 },
  { symbol: 'BTCUSDT', price_scale: 2 },
  { symbol: 'ETHUSDT', price_scale: 2 },
];
const UNIT: LeverTerms = { contractSize: '1', mmr: '0.004', feeRate: '0.0005', priceScale: 2, quoteScale: 6 };
const BTC: LeverTerms = { contractSize: '0.001', mmr: '0.005', feeRate: '0.0005', priceScale: 2, quoteScale: 6 };
const ETH: LeverTerms = { ...BTC, contractSize: '0.01' };

/** Cross book of the real account: BTC long 100 lots (Q 0.1) at 60,000 and ETH short 10 lots (Q 0.1) at 3,000. */
const BTC_CROSS = wire({
  id: 10,
  symbol: 'BTCUSDT',
  margin_mode: 'cross',
  contract_size: '0.001',
  mmr: '0.005',
  lots: 100,
  leverage: 10,
  entry_price: '60000.00',
  initial_margin: '600',
});
const ETH_CROSS = wire({
  id: 11,
  symbol: 'ETHUSDT',
  direction: 'short',
  margin_mode: 'cross',
  contract_size: '0.01',
  mmr: '0.005',
  lots: 10,
  leverage: 10,
  entry_price: '3000.00',
  initial_margin: '30',
});

function started(): PositionsCompute {
  const c = new PositionsCompute();
  c.setInstruments(INSTRUMENTS);
  return c;
}
const byId = (u: PositionsUpdate, id: number): PositionFigures | undefined => u.changed.find((f) => f.id === id);

describe('positions compute: isolated', () => {
  it('RULES vector: long Q 1 at 100,000 with WB 5,000 and MMR 0.4% liquidates at 95,381.52', () => {
    const c = started();
    c.setPositions([wire({})]);
    const at = c.applyMarks([{ symbol: 'UNITUSDT', price: '100000' }]);
    expect(byId(at, 1)).toEqual({
      id: 1,
      symbol: 'UNITUSDT',
      account: 'real',
      marginMode: 'isolated',
      side: 'long',
      mark: '100000.00',
      pnl: '0.000000',
      roe: '0.00',
      marginRatio: '8.00', // MM 400 / (5,000 + 0)
      liquidationPrice: '95381.52',
      liquidationDistance: '4.61', // (100,000 − 95,381.52) / 100,000
      warning: 'near',
    });
    const down = byId(c.applyMarks([{ symbol: 'UNITUSDT', price: '97000.00' }]), 1);
    expect(down).toMatchObject({
      pnl: '-3000.000000',
      roe: '-60.00',
      marginRatio: '19.40',
      liquidationDistance: '1.66',
    });
    expect(down?.warning).toBe('danger');
    // The same numbers straight from the rules.
    const units = { side: 'long' as const, lots: 1n, entry: 10_000_000n, margin: 5_000_000_000n, terms: UNIT };
    const upnl = unrealisedPnlExact(units, 9_700_000n);
    expect(down?.pnl).toBe(fromUnits(pnlUnits(units, 9_700_000n), 6));
    expect(down?.roe).toBe(roeText(upnl, 5_000_000_000n, UNIT));
    expect(down?.marginRatio).toBe(
      marginRatioText(maintenanceMarginExact(1n, 9_700_000n, UNIT), units.margin, upnl, UNIT),
    );
    expect(down?.liquidationPrice).toBe(fromUnits(isolatedLiquidationPrice(units) as bigint, 2));
    expect(down?.liquidationDistance).toBe(liquidationDistanceText('long', 9_700_000n, 9_538_152n, 2));
  });

  it('added margin is part of the isolated wallet: the LP falls by ΔM / (Q × (1 − MMR))', () => {
    const c = started();
    c.applyMarks([{ symbol: 'UNITUSDT', price: '100000.00' }]);
    const f = byId(c.setPositions([wire({ additional_margin: '1000' })]), 1);
    // (100,000 − 6,000) / 0.996 = 94,377.51... rounded down to the tick
    expect(f?.liquidationPrice).toBe('94377.51');
    expect(f?.roe).toBe('0.00'); // ROE stays against the initial margin
    expect(c.snapshot().totals.real.margin).toBe('6000.000000');
  });

  it('short with the margin from the rules when the wire has none: P&L toward −∞, LP rounded up', () => {
    const c = started();
    c.setPositions([
      wire({
        id: 2,
        symbol: 'BTCUSDT',
        direction: 'short',
        contract_size: '0.001',
        mmr: '0.005',
        lots: 3,
        leverage: 7,
        entry_price: '64250.01',
        initial_margin: null,
      }),
    ]);
    const f = byId(c.applyMarks([{ symbol: 'BTCUSDT', price: '64000.00' }]), 2);
    // IM 27.535719 (rounded up); UPNL 0.003 × 250.01; LP (192.75003 + 27.535719) / 0.003015 = 73,063.266... → .27
    expect(f).toMatchObject({ pnl: '0.750030', roe: '2.72', marginRatio: '3.39', liquidationPrice: '73063.27' });
    expect(f?.liquidationDistance).toBe('14.16');
    expect(f?.warning).toBe('safe');
    const units = { side: 'short' as const, lots: 3n, entry: 6_425_001n, terms: BTC };
    const loss = byId(c.applyMarks([{ symbol: 'BTCUSDT', price: '64250.02' }]), 2);
    expect(loss?.pnl).toBe(fromUnits(pnlUnits(units, 6_425_002n), 6));
    expect(loss?.pnl).toBe('-0.000030');
    // A long of Q 0.00015: Q × 0.01 = 0.0000015 USDT; a loss rounds to −0.000002, a gain down to 0.000001.
    c.upsert(wire({ id: 3, symbol: 'BTCUSDT', contract_size: '0.00005', lots: 3, entry_price: '64250.01' }));
    const tiny = (price: string) => byId(c.applyMarks([{ symbol: 'BTCUSDT', price }]), 3)?.pnl;
    expect(tiny('64250.00')).toBe('-0.000002');
    expect(tiny('64250.02')).toBe('0.000001');
  });
});

describe('positions compute: cross', () => {
  it("a cross LP moves when another instrument's mark moves; the book's ratio and totals follow", () => {
    const c = started();
    c.setWallets({ real: '1000' });
    c.setPositions([BTC_CROSS, ETH_CROSS]);
    const first = c.applyMarks([
      { symbol: 'BTCUSDT', price: '60000.00' },
      { symbol: 'ETHUSDT', price: '3000.00' },
    ]);
    // BTC: (6,000 − (1,000 − 1.5)) / 0.0995 = 50,266.331... ; ETH: (300 + 1,000 − 30) / 0.1005 = 12,636.815... → .82
    expect(byId(first, 10)).toMatchObject({ liquidationPrice: '50266.33', marginRatio: '3.15', pnl: '0.000000' });
    expect(byId(first, 11)).toMatchObject({ liquidationPrice: '12636.82', marginRatio: '3.15' });
    expect(first.totals.real).toEqual({
      account: 'real',
      positions: 2,
      pnl: '0.000000',
      margin: '630.000000',
      equity: '1000.000000',
      crossMarginRatio: '3.15', // (30 + 1.5) / 1,000
    });

    const next = c.applyMarks([{ symbol: 'ETHUSDT', price: '3100.00' }]);
    // ETH loses 10 and its MM is 1.55: BTC's LP = (6,000 − 988.45) / 0.0995 = 50,367.336... while its P&L is unchanged.
    const btc = byId(next, 10);
    expect(btc).toMatchObject({ mark: '60000.00', pnl: '0.000000', liquidationPrice: '50367.33', marginRatio: '3.18' });
    expect(byId(next, 11)).toMatchObject({ pnl: '-10.000000', roe: '-33.33' });
    expect(next.totals.real).toMatchObject({ pnl: '-10.000000', equity: '990.000000', crossMarginRatio: '3.18' });
    const a = { side: 'long' as const, lots: 100n, entry: 6_000_000n, terms: BTC };
    const b = { side: 'short' as const, lots: 10n, entry: 300_000n, terms: ETH, mark: 310_000n };
    expect(btc?.liquidationPrice).toBe(fromUnits(crossLiquidationPrice(a, 1_000_000_000n, [b]) as bigint, 2));
  });

  it('cross LP and ratio wait ("--") until the wallet and every cross mark are known; books stay apart', () => {
    const c = started();
    c.setPositions([BTC_CROSS, ETH_CROSS, wire({ ...ETH_CROSS, id: 12, account_type: 'simulator' })]);
    const one = c.applyMarks([{ symbol: 'BTCUSDT', price: '60000.00' }]);
    expect(byId(one, 10)).toMatchObject({ liquidationPrice: null, marginRatio: null, warning: 'safe' });
    const marks = c.applyMarks([{ symbol: 'ETHUSDT', price: '3000.00' }]);
    expect(byId(marks, 11)?.liquidationPrice).toBeNull();
    const wallet = c.setWallets({ real: '1000' });
    expect(byId(wallet, 10)?.liquidationPrice).toBe('50266.33');
    expect(byId(wallet, 12)).toBeUndefined(); // the simulator book has no wallet yet and did not change
    // Alone on its book with a wallet of 500: (300 + 500) / 0.1005 = 7,960.19...
    expect(byId(c.setWallets({ simulator: '500' }), 12)?.liquidationPrice).toBe('7960.20');
    expect(c.snapshot().totals.simulator).toMatchObject({
      positions: 1,
      equity: '500.000000',
      crossMarginRatio: '0.30',
    });
  });

  it('the one stand-in for the other positions gives the LP crossLiquidationPrice gives with the real others', () => {
    const symbols = ['BTCUSDT', 'ETHUSDT'] as const;
    const terms = { BTCUSDT: BTC, ETHUSDT: ETH };
    const position = fc.record({
      symbol: fc.constantFrom(...symbols),
      side: fc.constantFrom<'long' | 'short'>('long', 'short'),
      lots: fc.integer({ min: 1, max: 500 }),
      entryCents: fc.integer({ min: 100_000, max: 10_000_000 }),
      margin: fc.integer({ min: 1, max: 100_000 }),
    });
    fc.assert(
      fc.property(
        fc.array(position, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 100_000, max: 10_000_000 }),
        fc.integer({ min: 100_000, max: 10_000_000 }),
        fc.integer({ min: 0, max: 100_000_000_000 }),
        (list, btcMark, ethMark, walletUnits) => {
          const c = started();
          c.setWallets({ real: fromUnits(BigInt(walletUnits), 6) });
          const marks = { BTCUSDT: BigInt(btcMark), ETHUSDT: BigInt(ethMark) };
          c.applyMarks(symbols.map((symbol) => ({ symbol, price: fromUnits(marks[symbol], 2) })));
          const update = c.setPositions(
            list.map((p, i) =>
              wire({
                id: i,
                symbol: p.symbol,
                direction: p.side,
                margin_mode: 'cross',
                lots: p.lots,
                contract_size: terms[p.symbol].contractSize,
                mmr: '0.005',
                entry_price: fromUnits(BigInt(p.entryCents), 2),
                initial_margin: String(p.margin),
              }),
            ),
          );
          const atMark = list.map((p) => ({
            side: p.side,
            lots: BigInt(p.lots),
            entry: BigInt(p.entryCents),
            terms: terms[p.symbol],
            mark: marks[p.symbol],
          }));
          atMark.forEach((p, i) => {
            const lp = crossLiquidationPrice(
              p,
              BigInt(walletUnits),
              atMark.filter((_, k) => k !== i),
            );
            expect(byId(update, i)?.liquidationPrice).toBe(lp === null ? null : fromUnits(lp, 2));
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('positions compute: bookkeeping', () => {
  it('counts only holding and closing positions; a close or cancel removes what was shown', () => {
    const c = started();
    c.applyMarks([{ symbol: 'UNITUSDT', price: '100000.00' }]);
    const u = c.setPositions([
      wire({ id: 1 }),
      wire({ id: 2, phase: 'closing', status: 2 }),
      wire({ id: 3, phase: 'pending', status: 0, entry_price: null, initial_margin: null }),
      wire({ id: 4, phase: 'waiting', status: 0, entry_price: null }),
      wire({ id: 5, phase: 'closed', status: 3 }),
      wire({ id: 6, phase: 'cancelled', status: 4 }),
    ]);
    expect(u.changed.map((f) => f.id).sort()).toEqual([1, 2]);
    expect(u.totals.real).toMatchObject({ positions: 2, margin: '10000.000000' });
    // A changed position (margin added) comes back as a change, not as a removal and a new row.
    const again = c.upsert(wire({ id: 2, phase: 'closing', status: 2, additional_margin: '500' }));
    expect(again.removed).toEqual([]);
    expect(again.changed.map((f) => [f.id, f.liquidationPrice])).toEqual([[2, '94879.51']]);
    const closed = c.upsert(wire({ id: 2, phase: 'closed', status: 3 }));
    expect(closed.removed).toEqual([2]);
    expect(closed.totals.real.positions).toBe(1);
    expect(c.setPositions([]).removed).toEqual([1]);
    expect(c.snapshot().changed).toEqual([]);
  });

  it("a position's own mark (the server's latest) starts its symbol, and never overrides a live mark", () => {
    const c = started();
    const tick = { symbol: 'UNITUSDT', seq: 7, ts: 0, price: '99000.00' };
    expect(byId(c.upsert(wire({ id: 1, mark: tick })), 1)).toMatchObject({ mark: '99000.00', pnl: '-1000.000000' });
    c.applyMarks([{ symbol: 'UNITUSDT', price: '101000.00' }]);
    const later = c.upsert(wire({ id: 2, mark: tick }));
    expect(byId(later, 2)?.mark).toBe('101000.00');
    expect(byId(later, 1)).toBeUndefined();
  });

  it('totals: Σ rows P&L, Σ margin, equity = cross wallet + isolated margins + Σ P&L', () => {
    const c = started();
    c.setWallets({ real: '1000' });
    c.setPositions([wire({ id: 1 }), wire({ id: 2, direction: 'short', additional_margin: '250' }), BTC_CROSS]);
    const u = c.applyMarks([
      { symbol: 'UNITUSDT', price: '100100.00' },
      { symbol: 'BTCUSDT', price: '59000.00' },
    ]);
    // +100 − 100 − 100 (BTC 0.1 × −1,000); margins 5,000 + 5,250 + 600; equity 1,000 + 10,250 − 100
    expect(u.totals.real).toEqual({
      account: 'real',
      positions: 3,
      pnl: '-100.000000',
      margin: '10850.000000',
      equity: '11150.000000',
      crossMarginRatio: '3.27', // 29.5 / 900
    });
    expect(u.totals.simulator).toMatchObject({ positions: 0, pnl: '0.000000', equity: null });
  });

  it('returns only what changed: an unchanged mark returns nothing, another symbol leaves isolated rows alone', () => {
    const c = started();
    c.setPositions([wire({ id: 1 }), wire({ id: 2, symbol: 'BTCUSDT', contract_size: '0.001', lots: 3 })]);
    expect(c.applyMarks([{ symbol: 'UNITUSDT', price: '100000.00' }]).changed.map((f) => f.id)).toEqual([1]);
    expect(c.applyMarks([{ symbol: 'UNITUSDT', price: '100000' }]).changed).toEqual([]);
    expect(c.applyMarks([{ symbol: 'BTCUSDT', price: '99000.00' }]).changed.map((f) => f.id)).toEqual([2]);
  });

  it('strings in and out: no bigint and no fractional number leaves, unreadable input is named and ignored', () => {
    const c = new PositionsCompute();
    c.setPositions([wire({ id: 1 }), BTC_CROSS]); // before the instruments: kept, unread
    expect(c.applyMarks([{ symbol: 'UNITUSDT', price: '100000.00' }]).changed).toEqual([]);
    c.setWallets({ real: '1000' });
    const u = c.setInstruments(INSTRUMENTS);
    expect(byId(u, 1)?.liquidationPrice).toBe('95381.52');
    const bad = c.applyMarks([
      { symbol: 'UNITUSDT', price: '100000.001' }, // finer than the tick
      { symbol: 'BTCUSDT', price: '-5' },
    ]);
    expect(bad.rejected).toEqual(['mark UNITUSDT', 'mark BTCUSDT']);
    expect(bad.changed).toEqual([]);
    expect(c.setWallets({ simulator: '1e3' }).rejected).toEqual(['wallet simulator']);
    expect(c.upsert(wire({ id: 7, mmr: 'half' })).rejected).toEqual(['position 7']);
    const all = c.applyMarks([{ symbol: 'BTCUSDT', price: '61000.00' }]);
    const walk = (v: unknown, key: string): void => {
      if (typeof v === 'bigint') throw new Error(`bigint at ${key}`);
      if (typeof v === 'number') expect(['id', 'positions']).toContain(key);
      if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
    };
    walk(all, 'update');
    walk(c.snapshot(), 'snapshot');
    expect(JSON.parse(JSON.stringify(all))).toEqual(all);
  });

  it('warning levels: below 5% near, below 2% danger, past the LP danger; exactly at a threshold is the safer', () => {
    expect([NEAR_LIQUIDATION_PERCENT, DANGER_LIQUIDATION_PERCENT]).toEqual(['5', '2']);
    // LP 95,381.52: 5% away at mark m where (m − LP) / m = 0.05, i.e. m = LP / 0.95 = 100,401.6; 2%: LP / 0.98.
    const c = started();
    c.setPositions([wire({})]);
    const at = (price: string) => byId(c.applyMarks([{ symbol: 'UNITUSDT', price }]), 1)?.warning;
    expect(at('200000.00')).toBe('safe');
    expect(at('100401.60')).toBe('safe'); // exactly 5.00%
    expect(at('100401.59')).toBe('near');
    expect(at('97328.09')).toBe('near'); // 2.00000...%
    expect(at('97328.08')).toBe('danger'); // 1.99999...%
    expect(at('95381.52')).toBe('danger');
    expect(at('95000.00')).toBe('danger'); // past the LP: distance negative
    expect(c.snapshot().changed[0]?.liquidationDistance).toBe('-0.40');
    // Margins that put the LP at exactly 98,000 and 95,000 (WB = 100,000 − LP × 0.996): 2% and 5% away at 100,000.
    c.setPositions([wire({ id: 1, initial_margin: '2392' }), wire({ id: 2, initial_margin: '5380' })]);
    const u = c.applyMarks([{ symbol: 'UNITUSDT', price: '100000.00' }]);
    expect(byId(u, 1)).toMatchObject({ liquidationPrice: '98000.00', liquidationDistance: '2.00', warning: 'near' });
    expect(byId(u, 2)).toMatchObject({ liquidationPrice: '95000.00', liquidationDistance: '5.00', warning: 'safe' });
  });

  it('an incremental run ends where a fresh computation of the same state starts', () => {
    const c = started();
    c.setWallets({ real: '2000', simulator: '800' });
    const positions = [
      wire({ id: 1 }),
      wire({ id: 2, direction: 'short', margin_mode: 'cross', account_type: 'simulator' }),
      BTC_CROSS,
      ETH_CROSS,
      wire({ ...ETH_CROSS, id: 13, direction: 'long', account_type: 'simulator' }),
    ];
    c.setPositions(positions);
    const walk = ['100500.00', '61000.00', '2900.00', '99000.00', '3050.00', '59000.00'];
    const symbolOf = ['UNITUSDT', 'BTCUSDT', 'ETHUSDT'];
    for (const [i, price] of walk.entries()) c.applyMarks([{ symbol: symbolOf[i % 3] as string, price }]);
    const fresh = started();
    fresh.setWallets({ real: '2000', simulator: '800' });
    fresh.applyMarks([
      { symbol: 'UNITUSDT', price: '99000.00' },
      { symbol: 'BTCUSDT', price: '3050.00' },
      { symbol: 'ETHUSDT', price: '59000.00' },
    ]);
    fresh.setPositions(positions);
    const sorted = (u: PositionsUpdate) => ({ ...u, changed: [...u.changed].sort((a, b) => a.id - b.id) });
    expect(sorted(c.snapshot())).toEqual(sorted(fresh.snapshot()));
    expect(c.snapshot().changed).toHaveLength(5);
  });
});

describe('positions client', () => {
  it('over a Comlink channel it answers as the in-thread client does, in strings', async () => {
    const { port1, port2 } = new MessageChannel();
    Comlink.expose(positionsApi(), port1);
    const remote = connectPositions(port2, () => port1.close());
    const local = createInThreadPositions();
    try {
      for (const client of [remote, local]) {
        await client.setInstruments(INSTRUMENTS);
        await client.setWallets({ real: '1000' });
        await client.setPositions([BTC_CROSS, ETH_CROSS]);
      }
      const marks = [
        { symbol: 'BTCUSDT', price: '60000.00' },
        { symbol: 'ETHUSDT', price: '3100.00' },
      ];
      const [a, b] = await Promise.all([remote.applyMarks(marks), local.applyMarks(marks)]);
      expect(a).toEqual(b);
      expect(byId(a, 10)?.liquidationPrice).toBe('50367.33');
    } finally {
      remote.dispose();
      local.dispose();
      port2.close();
    }
  });
});
