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

/** Pub/sub, the recent list and the origin key in memory; delivery is synchronous. */
export class FakeTickBus implements TickBus {
  readonly handlers = new Set<(tick: Tick) => void>();
  readonly list: string[] = [];
  origin: MarketOrigin | undefined;
  published = 0;

  constructor(private readonly recentTicks = 5_000) {}

  async publish(tick: Tick): Promise<void> {
    const json = JSON.stringify(tick);
    this.published++;
    this.list.unshift(json);
    this.list.length = Math.min(this.list.length, this.recentTicks);
    for (const handler of this.handlers) handler(JSON.parse(json));
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
    this.list.length = 0;
  }

  async readOrigin(): Promise<MarketOrigin | undefined> {
    return this.origin;
  }

  async writeOrigin(origin: MarketOrigin): Promise<void> {
    this.origin = origin;
  }
}
