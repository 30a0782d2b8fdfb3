/**
 * The engine's index of resting triggers (DESIGN "The trading engine"): spot limit orders now, lever TP/SL,
 * liquidation prices and pending opens later. Each tick of an instrument must find what it fires without scanning
 * every resting trigger, so a tick costs O(log n + fired): one binary search per direction, then only the fired
 * levels are touched.
 *
 * Layout: per symbol and direction, an array of price levels kept sorted so that the levels a tick fires are
 * always a suffix of the array (the best price at the very end). Firing is then popping from the end, which costs
 * nothing per remaining level; a sorted array with removal from the front would shift every level left on each
 * tick. Each level is a Map, which keeps its triggers in insertion order. Adding or removing a whole level splices
 * the array (a memmove of pointers), paid when orders are placed or cancelled, not on ticks.
 */

/** `atOrBelow` fires when a tick is <= its price (a buy limit, a short's TP); `atOrAbove` when a tick is >= it. */
export type TriggerDirection = 'atOrBelow' | 'atOrAbove';

export interface Trigger<T> {
  id: string;
  symbol: string;
  direction: TriggerDirection;
  price: bigint;
  item: T;
}

interface Level<T> {
  price: bigint;
  /** By id, in insertion order (Map iteration order). */
  triggers: Map<string, Trigger<T>>;
}

/**
 * One direction of one symbol. `atOrBelow` levels ascend (the highest prices, fired first by a falling tick, at
 * the end); `atOrAbove` levels descend (the lowest prices at the end). Either way a tick fires a suffix.
 */
interface Side<T> {
  direction: TriggerDirection;
  levels: Level<T>[];
}

interface Sides<T> {
  atOrBelow: Side<T>;
  atOrAbove: Side<T>;
}

/** Whether `a` sits before `b` in a side's order (ascending for atOrBelow, descending for atOrAbove). */
const before = (direction: TriggerDirection, a: bigint, b: bigint) => (direction === 'atOrBelow' ? a < b : a > b);

/** Whether a tick at `tick` fires a level at `price`. */
const fires = (direction: TriggerDirection, price: bigint, tick: bigint) =>
  direction === 'atOrBelow' ? tick <= price : tick >= price;

/** The first index whose level is not before `price`: where a level at `price` is or would go. */
function lowerBound<T>(side: Side<T>, price: bigint): number {
  const { levels, direction } = side;
  let lo = 0;
  let hi = levels.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const level = levels[mid] as Level<T>;
    if (before(direction, level.price, price)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The first index whose level a tick fires. Fired levels form a suffix because, in the side's order, a level fires
 * exactly when it is not before the tick (atOrBelow: price >= tick; atOrAbove: price <= tick).
 */
function firstFired<T>(side: Side<T>, tick: bigint): number {
  return lowerBound(side, tick);
}

export class TriggerBook<T> {
  private readonly bySymbol = new Map<string, Sides<T>>();
  /** Every resting trigger by id, for has/remove and replacing on a second add. */
  private readonly byId = new Map<string, Trigger<T>>();

  get size(): number {
    return this.byId.size;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** The ids of every resting trigger (a copy: the caller may remove while walking it). */
  ids(): string[] {
    return [...this.byId.keys()];
  }

  /** Forgets every trigger (a process that stops leading drops its index and rebuilds it later). */
  clear(): void {
    this.bySymbol.clear();
    this.byId.clear();
  }

  /** Adds a trigger; the same id again replaces the old one (and takes its place last in its new level). */
  add(added: Trigger<T>): void {
    if (this.byId.has(added.id)) this.remove(added.id);
    // A copy: a caller changing its object's price afterwards would otherwise strand it in the wrong level.
    const trigger = { ...added };
    const side = this.side(trigger.symbol, trigger.direction, true) as Side<T>;
    const at = lowerBound(side, trigger.price);
    let level = side.levels[at];
    if (level === undefined || level.price !== trigger.price) {
      level = { price: trigger.price, triggers: new Map() };
      side.levels.splice(at, 0, level);
    }
    level.triggers.set(trigger.id, trigger);
    this.byId.set(trigger.id, trigger);
  }

  /** Removes a trigger by id; false when there was none. */
  remove(id: string): boolean {
    const trigger = this.byId.get(id);
    if (trigger === undefined) return false;
    this.byId.delete(id);
    const side = this.side(trigger.symbol, trigger.direction, false);
    if (side === undefined) return true;
    const at = lowerBound(side, trigger.price);
    const level = side.levels[at];
    if (level !== undefined && level.price === trigger.price) {
      level.triggers.delete(id);
      // Empty levels are dropped so that the searches and fire() never walk over them.
      if (level.triggers.size === 0) side.levels.splice(at, 1);
    }
    this.dropIfEmpty(trigger.symbol);
    return true;
  }

  /**
   * Removes and returns every trigger of `symbol` that `price` fires, best price first, then insertion order:
   * first the atOrBelow triggers (highest price first, the most aggressive buy, as in an order book), then the
   * atOrAbove ones (lowest price first). A fixed order keeps the engine's results reproducible from the record.
   */
  fire(symbol: string, price: bigint): Trigger<T>[] {
    const sides = this.bySymbol.get(symbol);
    if (sides === undefined) return [];
    const fired: Trigger<T>[] = [];
    for (const side of [sides.atOrBelow, sides.atOrAbove]) {
      const from = firstFired(side, price);
      for (let i = side.levels.length - 1; i >= from; i--) {
        for (const trigger of (side.levels[i] as Level<T>).triggers.values()) {
          fired.push(trigger);
          this.byId.delete(trigger.id);
        }
      }
      // Cutting the suffix is O(fired levels): nothing before `from` moves.
      side.levels.length = from;
    }
    this.dropIfEmpty(symbol);
    return fired;
  }

  /** What fire() would return, without removing anything (for tests and inspection). */
  peek(symbol: string, price: bigint): Trigger<T>[] {
    const sides = this.bySymbol.get(symbol);
    if (sides === undefined) return [];
    const fired: Trigger<T>[] = [];
    for (const side of [sides.atOrBelow, sides.atOrAbove]) {
      for (let i = side.levels.length - 1; i >= 0; i--) {
        const level = side.levels[i] as Level<T>;
        if (!fires(side.direction, level.price, price)) break;
        for (const trigger of level.triggers.values()) fired.push(trigger);
      }
    }
    return fired;
  }

  private side(symbol: string, direction: TriggerDirection, create: boolean): Side<T> | undefined {
    let sides = this.bySymbol.get(symbol);
    if (sides === undefined) {
      if (!create) return undefined;
      sides = { atOrBelow: { direction: 'atOrBelow', levels: [] }, atOrAbove: { direction: 'atOrAbove', levels: [] } };
      this.bySymbol.set(symbol, sides);
    }
    return sides[direction];
  }

  /** Forgets a symbol with nothing resting, so that a book of many short-lived instruments does not grow. */
  private dropIfEmpty(symbol: string): void {
    const sides = this.bySymbol.get(symbol);
    if (sides && sides.atOrBelow.levels.length === 0 && sides.atOrAbove.levels.length === 0) {
      this.bySymbol.delete(symbol);
    }
  }
}
