/** A published tick as the engine uses it: the price both as recorded text and as integer units of the pair's tick. */
export interface EngineTick {
  symbol: string;
  seq: number;
  ts: number;
  /** Exact decimal text, as recorded. */
  price: string;
  /** The same price in units of 10^-priceScale. */
  units: bigint;
}

/**
 * The last few seconds of ticks per instrument. An order accepted at T takes the first tick after T (RULES "Which
 * tick counts"), but the engine may learn of the order a moment after that tick went by (the order was accepted by
 * another process, or while a round was busy): the window still holds it. Ticks arrive in sequence order per
 * instrument.
 */
export class TickWindow {
  private readonly bySymbol = new Map<string, EngineTick[]>();

  constructor(
    /** How long ticks are kept; longer than the entry-tick wait, so no eligible tick is forgotten. */
    private readonly keepMs = 15_000,
  ) {}

  push(tick: EngineTick): void {
    let ticks = this.bySymbol.get(tick.symbol);
    if (!ticks) {
      ticks = [];
      this.bySymbol.set(tick.symbol, ticks);
    }
    const last = ticks[ticks.length - 1];
    if (last && tick.seq <= last.seq) return;
    ticks.push(tick);
    const cutoff = tick.ts - this.keepMs;
    let drop = 0;
    while (drop < ticks.length - 1 && (ticks[drop]?.ts ?? 0) < cutoff) drop++;
    if (drop > 0) ticks.splice(0, drop);
  }

  /** The first tick of `symbol` strictly after `ts`, if the window has one. */
  firstAfter(symbol: string, ts: number): EngineTick | undefined {
    const ticks = this.bySymbol.get(symbol);
    if (!ticks) return undefined;
    // Binary search for the first tick with tick.ts > ts (ticks are in time order per instrument).
    let lo = 0;
    let hi = ticks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((ticks[mid]?.ts ?? 0) > ts) hi = mid;
      else lo = mid + 1;
    }
    return ticks[lo];
  }

  /** Every tick of `symbol` strictly after `ts` the window holds, oldest first (a trigger catching up). */
  after(symbol: string, ts: number): EngineTick[] {
    const ticks = this.bySymbol.get(symbol);
    const first = this.firstAfter(symbol, ts);
    if (!ticks || !first) return [];
    return ticks.slice(ticks.indexOf(first));
  }

  /** The newest tick of `symbol` (its mark), if the window has one. */
  last(symbol: string): EngineTick | undefined {
    const ticks = this.bySymbol.get(symbol);
    return ticks?.[ticks.length - 1];
  }

  /** Whether the window reaches back to `ts` for `symbol` (else a tick after `ts` may have left it). */
  covers(symbol: string, ts: number): boolean {
    const first = this.bySymbol.get(symbol)?.[0];
    return first !== undefined && first.ts <= ts;
  }

  /**
   * Whether the window alone shows every tick of `symbol` in (`from`, `to`]: it reaches back to `from` and has a tick
   * after `to`, and ticks arrive in sequence per instrument. A window that has not seen past `to` may yet receive
   * one of them (a restarted leader generating again the steps the dead one published, or a slow delivery).
   */
  holdsSpan(symbol: string, from: number, to: number): boolean {
    return this.covers(symbol, from) && (this.last(symbol)?.ts ?? from) > to;
  }

  clear(): void {
    this.bySymbol.clear();
  }
}
