import type { CreatePriceLineOptions, PriceLineOptions } from 'lightweight-charts';
import { describe, expect, it } from 'vitest';
import { type ChartLine, syncPriceLines } from './price-chart';

/** A drawn line as the recorder keeps it: its options as last applied. */
class Line {
  applied = 0;
  constructor(public options: Partial<PriceLineOptions>) {}
  applyOptions(options: Partial<PriceLineOptions>): void {
    this.applied++;
    this.options = { ...this.options, ...options };
  }
}

/** A series that records the lines drawn on it. */
function recorder() {
  const drawn = new Set<Line>();
  return {
    drawn,
    createPriceLine(options: CreatePriceLineOptions): Line {
      const line = new Line(options);
      drawn.add(line);
      return line;
    },
    removePriceLine(line: Line): void {
      drawn.delete(line);
    },
  };
}

const line = (key: string, price: string, title = key): ChartLine => ({ key, price, title, tone: 'accent' });

describe('price lines kept in step with a list', () => {
  it('tells only a line that changed, since each change redraws the chart', () => {
    const series = recorder();
    const held = new Map<string, Line>();
    const lines = [line('1:entry', '100.50'), line('1:liquidation', '90.25', 'Liq.')];
    syncPriceLines(series, held, lines);
    const [entry, liquidation] = [held.get('1:entry'), held.get('1:liquidation')];
    // A cross position's liquidation price moves with the account; its entry does not.
    syncPriceLines(series, held, [line('1:entry', '100.50'), line('1:liquidation', '90.20', 'Liq.')]);
    syncPriceLines(series, held, [line('1:entry', '100.50'), line('1:liquidation', '90.20', 'Liq.')]);
    expect(entry?.applied).toBe(0);
    expect(liquidation?.applied).toBe(1);
    expect(liquidation?.options.price).toBe(90.2);
    // A new title (another language) is told.
    syncPriceLines(series, held, [line('1:entry', '100.50', 'Einstieg'), line('1:liquidation', '90.20', 'Liq.')]);
    expect(entry?.applied).toBe(1);
    expect(entry?.options.title).toBe('Einstieg');
  });

  it('draws new keys, moves kept ones in place and removes those gone', () => {
    const series = recorder();
    const held = new Map<string, Line>();
    expect(syncPriceLines(series, held, [line('1:entry', '100.50'), line('1:liquidation', '90.25', 'Liq.')])).toEqual([
      '1:entry',
      '1:liquidation',
    ]);
    expect([...series.drawn].map((l) => [l.options.price, l.options.title])).toEqual([
      [100.5, '1:entry'],
      [90.25, 'Liq.'],
    ]);
    const liquidation = held.get('1:liquidation');

    // Margin added: the same line moves (no second one), the entry stays; then a stop-loss appears.
    syncPriceLines(series, held, [line('1:entry', '100.50'), line('1:liquidation', '88.00', 'Liq.')]);
    expect(held.get('1:liquidation')).toBe(liquidation);
    expect(liquidation?.options.price).toBe(88);
    expect(series.drawn.size).toBe(2);
    syncPriceLines(series, held, [
      line('1:entry', '100.50'),
      line('1:liquidation', '88.00'),
      { ...line('1:stop_loss', '95.00'), tone: 'down', dashed: true },
    ]);
    expect(series.drawn.size).toBe(3);

    // The position closed: its lines go.
    expect(syncPriceLines(series, held, [])).toEqual([]);
    expect(series.drawn.size).toBe(0);
  });
});
