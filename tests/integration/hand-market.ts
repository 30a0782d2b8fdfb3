import { type Instrument, instrumentBySymbol } from '../../server/market/instruments';
import type { PriceSource, TickListener } from '../../server/market/simulator';

/**
 * A price source a test drives tick by tick at the prices it chooses (exact decimal text), so that a trigger, a
 * liquidation or a gap happens at a tick the test knows. Ticks carry the test clock's time and a sequence per
 * instrument; the app records and serves them as it would a live feed's.
 */
export class HandMarket implements PriceSource {
  readonly instruments: readonly Instrument[];
  private readonly listeners = new Set<{ listener: TickListener; symbol: string | undefined }>();
  private readonly seqs = new Map<string, number>();

  constructor(symbols: readonly string[]) {
    this.instruments = symbols.map((s) => {
      const instrument = instrumentBySymbol(s);
      if (!instrument) throw new Error(`no instrument ${s}`);
      return instrument;
    });
  }

  subscribe(listener: TickListener, symbol?: string): () => void {
    const entry = { listener, symbol };
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  start(): void {}
  stop(): void {}

  /** Publishes one tick of `symbol` at `price` (decimal text on the instrument's step) at time `ts`. */
  trade(symbol: string, price: string, ts: number): { seq: number; ts: number; price: string } {
    const instrument = this.instruments.find((i) => i.symbol === symbol);
    if (!instrument) throw new Error(`not in this market: ${symbol}`);
    const [whole = '0', fraction = ''] = price.split('.');
    if (fraction.length > instrument.priceScale) throw new Error(`off the step: ${price}`);
    const units = Number(whole + fraction.padEnd(instrument.priceScale, '0'));
    const seq = (this.seqs.get(symbol) ?? 0) + 1;
    this.seqs.set(symbol, seq);
    const tick = { symbol, instrumentId: instrument.id, ts, price: units, qty: 1, side: 'buy' as const, seq };
    for (const { listener, symbol: only } of this.listeners) if (only === undefined || only === symbol) listener(tick);
    return { seq, ts, price };
  }
}
