/** Where the lease lives (Redis in production, a map in the unit tests). */
export interface LeaseStore {
  /** `SET key id NX PX ttl`: true when this call took the lease. */
  acquire(id: string, ttlMs: number): Promise<boolean>;
  /** Extends the lease only while `id` holds it (compare-and-extend); false when someone else holds it or none. */
  renew(id: string, ttlMs: number): Promise<boolean>;
  /** Deletes the lease only while `id` holds it (a clean stop hands over at once, not after the ttl). */
  release(id: string): Promise<void>;
}

export interface LeaderLeaseOptions {
  id: string;
  ttlMs: number;
  /** Called on every change of role, after the change. */
  onChange: (leader: boolean) => void;
  /** Called after every successful acquire or renewal. */
  onRenewed?: () => void;
  onError?: (err: unknown) => void;
  now?: () => number;
}

/**
 * Leader election with a lease: the holder renews it every ttl/3, the others try to take it every ttl/3, so a
 * dead leader is replaced within about the ttl. A leader that cannot renew (Redis unreachable) steps down once
 * its last successful renewal is a ttl old, since by then another process may hold the lease.
 */
export class LeaderLease {
  private leader = false;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private lastRenewed = 0;
  private stopped = false;
  private stopping: Promise<void> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly store: LeaseStore,
    private readonly options: LeaderLeaseOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  get isLeader(): boolean {
    return this.leader;
  }

  /** One attempt now (so the caller knows its role), then the renew/retry loop every ttl/3. */
  async start(): Promise<boolean> {
    await this.stopping;
    this.stopped = false;
    await this.attempt();
    if (!this.timer && !this.stopped) {
      this.timer = setInterval(() => void this.attempt(), Math.max(1, Math.floor(this.options.ttlMs / 3)));
      this.timer.unref();
    }
    return this.leader;
  }

  /** One renew (as leader) or acquire (as follower); overlapping calls share the one in flight. */
  attempt(): Promise<void> {
    this.inFlight ??= this.run().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Stops the loop and, if leading, releases the lease. */
  stop(): Promise<void> {
    this.stopping ??= this.halt().finally(() => {
      this.stopping = undefined;
    });
    return this.stopping;
  }

  private async halt(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
    if (!this.leader) return;
    this.setLeader(false);
    try {
      await this.store.release(this.options.id);
    } catch (err) {
      this.options.onError?.(err);
    }
  }

  private async run(): Promise<void> {
    if (this.stopped) return;
    const { id, ttlMs } = this.options;
    try {
      const held = this.leader ? await this.store.renew(id, ttlMs) : await this.store.acquire(id, ttlMs);
      if (this.stopped) return;
      if (held) this.lastRenewed = this.now();
      this.setLeader(held);
      if (held) this.options.onRenewed?.();
    } catch (err) {
      this.options.onError?.(err);
      if (this.leader && this.now() - this.lastRenewed >= ttlMs) this.setLeader(false);
    }
  }

  private setLeader(leader: boolean): void {
    if (leader === this.leader) return;
    this.leader = leader;
    this.options.onChange(leader);
  }
}
