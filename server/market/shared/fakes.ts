import type { Tick } from '../simulator';
import type { LeaseStore } from './leader';
import type { MarketOrigin, TickBus } from './redis-tick-source';

/** Redis's lease semantics (SET NX PX, compare-and-extend, compare-and-delete) on a map and a given clock. */
export class FakeLeaseStore implements LeaseStore {
  holder: { id: string; expires: number } | undefined;
  failing = false;

  constructor(private readonly now: () => number) {}

  private current(): { id: string; expires: number } | undefined {
    if (this.holder && this.holder.expires <= this.now()) this.holder = undefined;
    return this.holder;
  }

  async acquire(id: string, ttlMs: number): Promise<boolean> {
    if (this.failing) throw new Error('redis down');
    if (this.current()) return false;
    this.holder = { id, expires: this.now() + ttlMs };
    return true;
  }

  async renew(id: string, ttlMs: number): Promise<boolean> {
    if (this.failing) throw new Error('redis down');
    const holder = this.current();
    if (holder?.id !== id) return false;
    holder.expires = this.now() + ttlMs;
    return true;
  }

  async release(id: string): Promise<void> {
    if (this.current()?.id === id) this.holder = undefined;
  }
}

/** Pub/sub, the recent list, the origin and the snapshot in memory; delivery is synchronous. */
export class FakeTickBus implements TickBus {
  readonly handlers = new Set<(tick: Tick) => void>();
  /** The recent list as Redis holds it (JSON, newest first), less the `fresh` ticks not merged into it yet. */
  private merged: string[] = [];
  /**
   * Newest last: publishing appends here and reads merge it in, so a test that publishes millions of ticks does
   * not pay for moving the whole list on every tick.
   */
  private fresh: Tick[] = [];
  origin: MarketOrigin | undefined;
  snapshot: string | undefined;
  snapshotWrites = 0;
  published = 0;

  constructor(private readonly recentTicks = 5_000) {}

  /** The recent list, newest first (tests may change it). */
  get list(): string[] {
    if (this.fresh.length > 0) {
      const newest = this.fresh.slice(-this.recentTicks).reverse();
      this.merged = [...newest.map((tick) => JSON.stringify(tick)), ...this.merged].slice(0, this.recentTicks);
      this.fresh = [];
    }
    return this.merged;
  }

  async publish(tick: Tick): Promise<void> {
    this.published++;
    // Copies, like a trip through Redis: no process shares the publisher's object.
    this.fresh.push({ ...tick });
    if (this.fresh.length > this.recentTicks * 2) this.fresh.splice(0, this.fresh.length - this.recentTicks);
    for (const handler of this.handlers) handler({ ...tick });
  }

  async recent(): Promise<Tick[]> {
    return this.list.map((json) => JSON.parse(json) as Tick).reverse();
  }

  async subscribe(handler: (tick: Tick) => void): Promise<() => Promise<void>> {
    this.handlers.add(handler);
    return async () => {
      this.handlers.delete(handler);
    };
  }

  async clearRecent(): Promise<void> {
    this.merged = [];
    this.fresh = [];
    this.snapshot = undefined;
  }

  async readOrigin(): Promise<MarketOrigin | undefined> {
    return this.origin;
  }

  async writeOrigin(origin: MarketOrigin): Promise<void> {
    this.origin = origin;
  }

  async readSnapshot(): Promise<string | undefined> {
    return this.snapshot;
  }

  async writeSnapshot(json: string): Promise<void> {
    this.snapshotWrites++;
    this.snapshot = json;
  }
}
