import type { LeverPosition } from '../../../protocol/lever';

/**
 * What the contracts chart draws of the user's open positions: each one's entry, liquidation price, take-profit and
 * stop-loss as a horizontal line, exact decimal text. Pure: the chart component draws what these return.
 */

export const LINE_KINDS = ['entry', 'liquidation', 'take_profit', 'stop_loss'] as const;
export type LineKind = (typeof LINE_KINDS)[number];

export interface PositionLine {
  /** `${position id}:${kind}`: a line keeps its key while its price moves. */
  key: string;
  position: number;
  kind: LineKind;
  side: LeverPosition['direction'];
  leverage: number;
  price: string;
}

/** Open positions: drawn while holding or closing (a close may still be refused). */
const isOpen = (p: LeverPosition) => p.phase === 'holding' || p.phase === 'closing';

/**
 * The lines of `symbol`'s open positions in `positions`, oldest position first, each in LINE_KINDS order. The
 * liquidation price is the live one when the positions worker has it (it moves with added margin, and for cross
 * positions with the account), else the server's.
 */
export function positionLines(
  positions: readonly LeverPosition[] | null | undefined,
  symbol: string,
  liquidationOf: (position: LeverPosition) => string | null | undefined,
): PositionLine[] {
  const lines: PositionLine[] = [];
  const open = (positions ?? []).filter((p) => p.symbol === symbol && isOpen(p)).sort((a, b) => a.id - b.id);
  for (const p of open) {
    const prices: Record<LineKind, string | null | undefined> = {
      entry: p.entry_price,
      liquidation: liquidationOf(p) ?? p.Liquidation_Price,
      take_profit: p.profit_take_price,
      stop_loss: p.stop_loss_price,
    };
    for (const kind of LINE_KINDS) {
      const price = prices[kind];
      if (!price) continue;
      lines.push({ key: `${p.id}:${kind}`, position: p.id, kind, side: p.direction, leverage: p.leverage, price });
    }
  }
  return lines;
}

/**
 * The price range a chart shows: its candles' `low`..`high`, widened to take in each line that lies within half the
 * candles' span beyond them, so that near lines (an entry, a close stop) stay in view while a far one (a 10x
 * liquidation price) does not flatten the candles to a band: they keep at least half the height. Numbers for
 * drawing only; the lines' exact prices are their text.
 */
export function rangeInView(low: number, high: number, lines: readonly number[]): { low: number; high: number } {
  const reach = (high - low) / 2;
  let from = low;
  let to = high;
  for (const price of lines) {
    if (price < low - reach || price > high + reach) continue;
    from = Math.min(from, price);
    to = Math.max(to, price);
  }
  return { low: from, high: to };
}
