import { describe, expect, it } from 'vitest';
import { position as modelPosition } from '../../../machines/lever/order.model';
import type { LeverPosition } from '../../../protocol/lever';
import { positionLines, rangeInView } from './position-lines';

/** A holding position as the book's open list holds it (the order machine's model), entered at 100.00. */
const position = (id: number, over: Partial<LeverPosition>): LeverPosition =>
  modelPosition(over.phase ?? 'holding', 1_000, { id, entry_price: '100.00', Liquidation_Price: '90.50', ...over });

describe("the contracts chart's position lines", () => {
  it("draws each open position's entry, liquidation, take-profit and stop-loss that it has", () => {
    const lines = positionLines(
      [
        position(2, { direction: 'short', leverage: 5, profit_take_price: '95.00', stop_loss_price: '104.00' }),
        position(1, {}),
        position(3, { symbol: 'ETH' }),
        position(4, { phase: 'closed' }),
        position(5, { phase: 'closing', entry_price: '101.00', Liquidation_Price: null }),
      ],
      'BTC',
      () => undefined,
    );
    expect(lines.map((l) => [l.key, l.price])).toEqual([
      ['1:entry', '100.00'],
      ['1:liquidation', '90.50'],
      ['2:entry', '100.00'],
      ['2:liquidation', '90.50'],
      ['2:take_profit', '95.00'],
      ['2:stop_loss', '104.00'],
      ['5:entry', '101.00'],
    ]);
    expect(lines[2]).toMatchObject({ position: 2, kind: 'entry', side: 'short', leverage: 5 });
  });

  it("takes the worker's live liquidation price over the server's, and the server's when the worker has none", () => {
    const held = [position(1, {}), position(2, {})];
    const live = new Map([[1, '91.25']]);
    const liquidation = positionLines(held, 'BTC', (p) => live.get(p.id)).filter((l) => l.kind === 'liquidation');
    expect(liquidation.map((l) => l.price)).toEqual(['91.25', '90.50']);
  });

  it('keeps near lines in view and lets far ones go, so the candles keep at least half the height', () => {
    // Candles from 100 to 110: lines within 5 either side are taken in.
    expect(rangeInView(100, 110, [108, 112])).toEqual({ low: 100, high: 112 });
    expect(rangeInView(100, 110, [96, 115])).toEqual({ low: 96, high: 115 });
    expect(rangeInView(100, 110, [90, 120])).toEqual({ low: 100, high: 110 });
    expect(rangeInView(100, 110, [])).toEqual({ low: 100, high: 110 });
  });
});
