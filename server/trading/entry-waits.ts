import type { EngineTick, TickWindow } from './tick-window';

interface Waiting<T> {
  id: string;
  symbol: string;
  acceptedAt: number;
  item: T;
}

export interface Entry<T> {
  item: T;
  tick: EngineTick;
}

/**
 * Orders waiting for their entry tick (RULES "Which tick counts": the first recorded tick of the instrument after
 * acceptance; "No tick, no trade": none within the wait, and the order is cancelled). Kept per instrument in
 * acceptance order, so a tick releases a prefix of the list.
 */
export class EntryWaits<T> {
  private readonly bySymbol = new Map<string, Waiting<T>[]>();
  private readonly ids = new Set<string>();

  constructor(private readonly window: TickWindow) {}

  get size(): number {
    return this.ids.size;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** The ids of every waiting order. */
  idList(): string[] {
    return [...this.ids];
  }

  /**
   * Adds an accepted order; when the window already holds its entry tick (the engine learned of the order late),
   * returns that entry at once instead of waiting.
   */
  add(id: string, symbol: string, acceptedAt: number, item: T): Entry<T> | undefined {
    const tick = this.window.firstAfter(symbol, acceptedAt);
    if (tick) return { item, tick };
    if (this.ids.has(id)) return undefined;
    this.ids.add(id);
    let list = this.bySymbol.get(symbol);
    if (!list) {
      list = [];
      this.bySymbol.set(symbol, list);
    }
    // Usually appended (acceptance order); an order learned late is slotted in by its acceptance time.
    let at = list.length;
    while (at > 0 && (list[at - 1]?.acceptedAt ?? 0) > acceptedAt) at--;
    list.splice(at, 0, { id, symbol, acceptedAt, item });
    return undefined;
  }

  remove(id: string): void {
    if (!this.ids.delete(id)) return;
    for (const [symbol, list] of this.bySymbol) {
      const at = list.findIndex((w) => w.id === id);
      if (at >= 0) {
        list.splice(at, 1);
        if (list.length === 0) this.bySymbol.delete(symbol);
        return;
      }
    }
  }

  /** The orders this tick is the entry tick of: accepted before it. */
  onTick(tick: EngineTick): Entry<T>[] {
    const list = this.bySymbol.get(tick.symbol);
    if (!list) return [];
    let n = 0;
    while (n < list.length && (list[n]?.acceptedAt ?? 0) < tick.ts) n++;
    if (n === 0) return [];
    const released = list.splice(0, n);
    if (list.length === 0) this.bySymbol.delete(tick.symbol);
    return released.map((w) => {
      this.ids.delete(w.id);
      return { item: w.item, tick };
    });
  }

  /** Removes and returns the orders accepted at or before `cutoff` that are still waiting (their wait ran out). */
  expire(cutoff: number): T[] {
    const out: T[] = [];
    for (const [symbol, list] of this.bySymbol) {
      let n = 0;
      while (n < list.length && (list[n]?.acceptedAt ?? 0) <= cutoff) n++;
      for (const w of list.splice(0, n)) {
        this.ids.delete(w.id);
        out.push(w.item);
      }
      if (list.length === 0) this.bySymbol.delete(symbol);
    }
    return out;
  }

  clear(): void {
    this.bySymbol.clear();
    this.ids.clear();
  }
}
