import type { Tick, TickListener } from '../simulator';

/** The listeners of a price source, each for every tick or for one symbol's. */
export class TickListeners {
  private readonly entries = new Set<{ fn: TickListener; symbol: string | undefined }>();

  /** Returns the unsubscribe function (PriceSource.subscribe's contract). */
  add(listener: TickListener, symbol?: string): () => void {
    const entry = { fn: listener, symbol };
    this.entries.add(entry);
    return () => this.entries.delete(entry);
  }

  publish(tick: Tick): void {
    for (const { fn, symbol } of this.entries) {
      if (symbol === undefined || symbol === tick.symbol) fn(tick);
    }
  }
}
