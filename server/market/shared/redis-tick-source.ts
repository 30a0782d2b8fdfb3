import { z } from 'zod/mini';
import type { Timeframe } from '../../../protocol/market';
import type { Bar } from '../candles';
import type { MarketFeed } from '../feed';
import type { Instrument } from '../instruments';
import type { MarketLogger } from '../live/binance';
import { TickListeners } from '../live/tick-listeners';
import type { MarketSimulator, PriceSource, Tick, TickListener } from '../simulator';
import { LeaderLease, type LeaseStore } from './leader';
import { decodeSnapshot, encodeSnapshot, type MarketOrigin, type MarketSnapshot } from './snapshot';

export type { MarketOrigin };

/** The leader's ticks between the processes (Redis pub/sub and a capped list in production). */
export interface TickBus {
  /** Publishes to every process and keeps the tick in the recent list. */
  publish(tick: Tick): Promise<void>;
  /** The recent list, oldest first. */
  recent(): Promise<Tick[]>;
  /** Every published tick (own ones included); resolves once subscribed, to the unsubscribe function. */
  subscribe(handler: (tick: Tick) => void): Promise<() => Promise<void>>;
  /** Empties the recent list and drops the snapshot (a new market starts: the last one's are not its history). */
  clearRecent(): Promise<void>;
  readOrigin(): Promise<MarketOrigin | undefined>;
  /** Writes the origin and extends the snapshot's life with it (both go when no leader renews them). */
  writeOrigin(origin: MarketOrigin, ttlMs: number): Promise<void>;
  /** The leader's latest state snapshot (JSON, see snapshot.ts), if any. */
  readSnapshot(): Promise<string | undefined>;
  writeSnapshot(json: string, ttlMs: number): Promise<void>;
}

/** How a process's market started: from the leader's snapshot or by replaying the walk from the origin. */
export interface MarketStartup {
  from: 'snapshot' | 'origin';
  /** How old the snapshot was (ms of the market's clock), when started from one. */
  snapshotAgeMs?: number;
  /** Ticks the simulator generated to get from there to now (history included when from the origin). */
  replayedTicks: number;
  /** Wall time of the backfill (loading the snapshot or replaying, then the recent ticks). */
  wallMs: number;
}

/** The price source the leader runs, and the simulator inside it (the follower's history and stand-by). */
export interface LocalMarket {
  source: PriceSource;
  simulator: MarketSimulator;
}

export interface RedisTickSourceOptions {
  bus: TickBus;
  lease: LeaseStore;
  processId: string;
  ttlMs: number;
  /** The seed when this process starts the market (no origin in Redis yet). */
  seed: string;
  /** When this process starts the market: the sequence numbers to continue above (the price record's last). */
  startSeqs?: ReadonlyMap<string, number> | undefined;
  /** The local price source for an origin: the simulator with that seed and live start, maybe under live coins. */
  createLocal(origin: MarketOrigin): LocalMarket;
  logger?: MarketLogger | undefined;
  now?: () => number;
  /** How long a starting follower waits for the leader's origin. */
  originWaitMs?: number;
  /**
   * The leader refreshes its state snapshot at most this often (ms of `now`), at a lease renewal: it is
   * what a joining process starts from, which then replays only the steps since (default 15 s). Taking it costs
   * the leader's event loop tens of ms (a 30-day market of 24 instruments: about 4.4 MB of JSON), while replaying
   * 15 s of steps costs a joining process about a millisecond; the recent list (5,000 ticks) covers far more than
   * 15 s of live exchange coins, which cannot be replayed.
   */
  snapshotEveryMs?: number;
  onClose?: () => Promise<void>;
}

const int = z.number().check(z.int(), z.refine(Number.isSafeInteger));
const TickSchema = z.object({
  symbol: z.string().check(z.minLength(1)),
  instrumentId: int,
  ts: int,
  price: int,
  qty: int,
  side: z.enum(['buy', 'sell']),
  seq: int,
});
export const OriginSchema = z.object({
  seed: z.string(),
  liveStart: int,
  seqBase: z.optional(z.record(z.string(), int)),
});

/** A tick from its JSON, or undefined when it is not one (payloads are integers, never floats). */
export function parseTick(json: string): Tick | undefined {
  try {
    const parsed = TickSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export const SNAPSHOT_EVERY_MS = 15_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The market shared by several server processes (REDIS_URL). One process, the lease holder, runs the real price
 * source and publishes each of its ticks; the others apply those ticks. Every process's feed is built from
 * ticks alone (candles, quotes, trades), so the same ticks give the same market everywhere.
 *
 * History: the leader keeps a state snapshot in Redis (snapshot.ts: its simulator's walk state and its feed's
 * candles, trades and last ticks), refreshed every few seconds. A joining process loads it and replays only the
 * simulated steps since it was taken, so it serves within moments however long the market has run. Without a
 * snapshot (the market's first seconds, or one from another market) it replays the walk from the origin (the
 * leader's seed and live start, kept in Redis) on the same 1-second grid up to now, which costs time in proportion
 * to the market's age. Either way the recent list adds what the simulator cannot replay (live exchange coins).
 * Ticks are applied once per symbol and sequence number: a tick whose `seq` is not above the last one applied
 * (the snapshot's included) is dropped, and so is a tick of a symbol this process does not know yet (a coin listed
 * by another process, which this one learns of by polling: `addInstrument` then replays its walk since the listing).
 *
 * Failover: each follower keeps its simulator stepped along with the leader's ticks (applied to nothing), so
 * the process that takes the lease over continues the same walk with the next sequence numbers; ticks of the
 * leader's last moments (up to the ttl) that never reached Redis are generated again by the new leader.
 */
export class RedisTickSource implements PriceSource {
  private readonly listeners = new TickListeners();
  private readonly lastSeq = new Map<string, number>();
  /** The symbols this process serves: the local source's, and coins listed since (addInstrument). */
  private readonly symbols = new Set<string>();
  private readonly lease: LeaderLease;
  private readonly now: () => number;
  private local: LocalMarket | undefined;
  private origin: MarketOrigin | undefined;
  private unsubscribeBus: (() => Promise<void>) | undefined;
  /** Ticks that came before the backfill, applied (deduplicated) at its end. */
  private pending: Tick[] | undefined = [];
  private replay: TickListener | undefined;
  private started = false;
  private closed = false;
  private lastError = '';
  /** Read at connect; loaded by the backfill, then dropped (it is large). */
  private snapshot: MarketSnapshot | undefined;
  private feed: MarketFeed | undefined;
  private lastSnapshotAt = Number.NEGATIVE_INFINITY;
  private snapshotting = false;
  private startupInfo: MarketStartup | undefined;

  /** Connects to the bus, takes part in the election and learns the origin; the feed's backfill comes next. */
  static async connect(options: RedisTickSourceOptions): Promise<RedisTickSource> {
    const source = new RedisTickSource(options);
    try {
      await source.init();
      return source;
    } catch (err) {
      await source.close();
      throw err;
    }
  }

  private constructor(private readonly options: RedisTickSourceOptions) {
    this.now = options.now ?? Date.now;
    this.lease = new LeaderLease(options.lease, {
      id: options.processId,
      ttlMs: options.ttlMs,
      now: this.now,
      onChange: (leader) => this.roleChanged(leader),
      onRenewed: () => {
        this.refreshOrigin();
        this.writeSnapshot(false);
      },
      onError: (err) => this.warn('lease', err),
    });
  }

  /** Known once connected (the local source's, which the feed reads when it is built). */
  get instruments(): PriceSource['instruments'] {
    return this.local?.source.instruments ?? [];
  }

  get isLeader(): boolean {
    return this.lease.isLeader;
  }

  /** One lease renewal (leader) or take-over attempt (follower) now; the timer does one every ttl/3. */
  checkLease(): Promise<void> {
    return this.lease.attempt();
  }

  get marketOrigin(): MarketOrigin | undefined {
    return this.origin;
  }

  /** How this process's market started (known after the backfill). */
  get startup(): MarketStartup | undefined {
    return this.startupInfo;
  }

  private async init(): Promise<void> {
    // Subscribe first: nothing published from here on is missed (the backfill drops what it already has).
    this.unsubscribeBus = await this.options.bus.subscribe((tick) => this.remote(tick));
    await this.lease.start();
    const origin = await this.resolveOrigin();
    this.origin = origin;
    const local = this.options.createLocal(origin);
    local.source.subscribe((tick) => this.fromLocal(tick));
    this.local = local;
    for (const instrument of local.source.instruments) this.symbols.add(instrument.symbol);
    // The snapshot before the recent list: a tick newer than the snapshot is then either in the list or on the bus.
    const json = await this.options.bus.readSnapshot();
    this.snapshot = json === undefined ? undefined : decodeSnapshot(json, origin);
    // Only this market's ticks (a list left from an earlier market is older than its live start).
    const recent = (await this.options.bus.recent()).filter((tick) => tick.ts >= origin.liveStart);
    this.pending?.unshift(...recent);
    if (this.lease.isLeader) await this.options.bus.writeOrigin(origin, this.originTtl);
  }

  private get originTtl(): number {
    return this.options.ttlMs * 3;
  }

  /** The leader's origin; a process that holds the lease and finds none starts the market now. */
  private async resolveOrigin(): Promise<MarketOrigin> {
    const deadline = this.now() + (this.options.originWaitMs ?? 10_000);
    for (;;) {
      const found = await this.options.bus.readOrigin();
      if (found) return found;
      if (this.lease.isLeader) {
        const origin: MarketOrigin = {
          seed: this.options.seed,
          liveStart: Math.floor(this.now() / 60_000) * 60_000,
          ...(this.options.startSeqs?.size ? { seqBase: Object.fromEntries(this.options.startSeqs) } : {}),
        };
        await this.options.bus.clearRecent();
        await this.options.bus.writeOrigin(origin, this.originTtl);
        return origin;
      }
      if (this.now() >= deadline) throw new Error('shared market: no leader published the market origin in time');
      await sleep(50);
    }
  }

  subscribe(listener: TickListener, symbol?: string): () => void {
    return this.listeners.add(listener, symbol);
  }

  /** The local source's far past: every process builds the same from the origin (seed and live start). */
  history(symbol: string, timeframe: Timeframe): readonly Bar[] {
    return this.local?.source.history?.(symbol, timeframe) ?? [];
  }

  /**
   * A coin listed at run time joins the local source (the simulator walks it from its listing, see
   * MarketSimulator.addInstrument). The leader publishes the ticks that follow like any other, the steps it caught
   * up on included. A follower's stand-by simulator walks exactly those ticks (same seed, listing time and grid), so
   * it applies the ones it catches up on to its own feed at once: the coin's history since the listing, without
   * waiting for the leader; the leader's copies of them are then dropped by their sequence numbers.
   */
  addInstrument(instrument: Instrument, listedAt: number): void {
    const local = this.local;
    if (!local?.source.addInstrument || this.symbols.has(instrument.symbol)) return;
    this.symbols.add(instrument.symbol);
    // Before the backfill (still starting) the simulator has no steps to catch up on: the backfill covers the coin.
    const replaying = !this.pending && !this.lease.isLeader;
    if (replaying) {
      this.replay = (tick) => {
        if (this.accept(tick)) this.listeners.publish(tick);
      };
    }
    try {
      local.source.addInstrument(instrument, listedAt);
    } finally {
      if (replaying) this.replay = undefined;
    }
  }

  /**
   * The leader's snapshot loaded into `feed` (or, without one, the origin's history), the walk's steps since
   * replayed up to now, then the recent list and whatever came from the bus meanwhile (each tick once).
   */
  backfill(onTick: TickListener, feed?: MarketFeed): void {
    const local = this.local;
    if (!local || !this.pending) return;
    const started = performance.now();
    this.feed = feed;
    let replayed = 0;
    const apply = (tick: Tick) => {
      if (this.accept(tick)) onTick(tick);
    };
    this.replay = (tick) => {
      replayed++;
      apply(tick);
    };
    let snapshot: MarketSnapshot | undefined;
    try {
      // Loading a snapshot can publish too: the walks of coins listed after it was taken (MarketSimulator.restore).
      snapshot = this.snapshot && this.load(this.snapshot, local, feed) ? this.snapshot : undefined;
      this.snapshot = undefined;
      if (!snapshot) local.source.backfill?.(this.replay);
      local.simulator.advanceTo(this.now());
    } finally {
      this.replay = undefined;
    }
    const pending = this.pending;
    this.pending = undefined;
    for (const tick of pending) apply(tick);
    this.startupInfo = {
      from: snapshot ? 'snapshot' : 'origin',
      ...(snapshot ? { snapshotAgeMs: this.now() - snapshot.takenAt } : {}),
      replayedTicks: replayed,
      wallMs: Math.round(performance.now() - started),
    };
    const age = snapshot ? ` (${Math.round((this.now() - snapshot.takenAt) / 1_000)} s old)` : '';
    this.options.logger?.info(
      `shared market: started from ${snapshot ? `the leader's snapshot${age}` : 'the origin'}, ` +
        `${replayed} ticks replayed in ${this.startupInfo.wallMs} ms`,
    );
  }

  /** Puts the simulator and the feed where the snapshot has them; false (nothing changed) when it does not fit. */
  private load(snapshot: MarketSnapshot, local: LocalMarket, feed: MarketFeed | undefined): boolean {
    try {
      // Throws, before anything changes, for a snapshot of other instruments or another step.
      local.simulator.restore(snapshot.simulator);
    } catch (err) {
      this.warn('snapshot', err);
      return false;
    }
    feed?.importState(snapshot.feed);
    for (const [symbol, seq] of Object.entries(snapshot.seqs)) this.lastSeq.set(symbol, seq);
    return true;
  }

  /**
   * The leader's state for processes that join later: at most every `snapshotEveryMs` (or now, when `force`), one
   * write at a time. Taken synchronously, so the simulator's state and the feed's match tick for tick.
   */
  private writeSnapshot(force: boolean): void {
    const { local, feed, origin } = this;
    if (!local || !feed || !origin || this.pending || !this.started || this.closed || !this.lease.isLeader) return;
    if (this.snapshotting) return;
    const now = this.now();
    if (!force && now - this.lastSnapshotAt < (this.options.snapshotEveryMs ?? SNAPSHOT_EVERY_MS)) return;
    this.lastSnapshotAt = now;
    const json = encodeSnapshot({
      version: 1,
      origin,
      takenAt: now,
      seqs: Object.fromEntries(this.lastSeq),
      simulator: local.simulator.snapshot(),
      feed: feed.exportState(),
    });
    this.snapshotting = true;
    this.options.bus
      .writeSnapshot(json, this.originTtl)
      .catch((err: unknown) => this.warn('snapshot', err))
      .finally(() => {
        this.snapshotting = false;
      });
  }

  start(): void {
    if (this.closed) return;
    if (this.pending) this.backfill(() => {});
    this.started = true;
    if (this.lease.isLeader) {
      this.local?.source.start();
      // The market's first snapshot (or the first since this process took over) at once.
      this.writeSnapshot(true);
    }
    void this.lease.start();
  }

  /** Stops the local source and hands the lease over (a stopped leader would freeze every process's market). */
  stop(): void {
    this.started = false;
    this.local?.source.stop();
    void this.lease.stop();
  }

  /** Stops, releases the lease and closes the bus (and the Redis connections). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stop();
    await this.lease.stop();
    try {
      await this.unsubscribeBus?.();
    } catch (err) {
      this.warn('unsubscribe', err);
    }
    await this.options.onClose?.();
  }

  /** True when `tick` is news for a symbol this process serves (records it). */
  private accept(tick: Tick): boolean {
    if (!this.symbols.has(tick.symbol)) return false;
    const last = this.lastSeq.get(tick.symbol) ?? 0;
    if (tick.seq <= last) return false;
    this.lastSeq.set(tick.symbol, tick.seq);
    return true;
  }

  /** A tick of the local source: the backfill's replay, the leader's live tick, or a follower's stand-by step. */
  private fromLocal(tick: Tick): void {
    if (this.replay) {
      this.replay(tick);
      return;
    }
    if (!this.lease.isLeader || !this.started) return;
    // Sequence numbers only go up across leaders: a live exchange source restarted by a new leader counts from 1.
    const last = this.lastSeq.get(tick.symbol) ?? 0;
    const published = tick.seq > last ? tick : { ...tick, seq: last + 1 };
    this.lastSeq.set(tick.symbol, published.seq);
    this.listeners.publish(published);
    this.options.bus.publish(published).catch((err: unknown) => this.warn('publish', err));
  }

  private remote(tick: Tick): void {
    if (this.pending) {
      this.pending.push(tick);
      return;
    }
    if (this.lease.isLeader) return;
    // Keep the stand-by simulator in step (its ticks go nowhere while following).
    this.local?.simulator.advanceTo(Math.min(tick.ts, this.now()));
    if (this.accept(tick)) this.listeners.publish(tick);
  }

  private roleChanged(leader: boolean): void {
    const local = this.local;
    if (leader) {
      this.options.logger?.info(`shared market: ${this.options.processId} leads (runs the price source)`);
      if (this.origin) this.refreshOrigin();
      if (local && this.started) local.source.start();
      this.writeSnapshot(true);
    } else {
      this.options.logger?.info(`shared market: ${this.options.processId} follows the leader's ticks`);
      local?.source.stop();
    }
  }

  private refreshOrigin(): void {
    if (!this.origin || !this.lease.isLeader) return;
    this.options.bus.writeOrigin(this.origin, this.originTtl).catch((err: unknown) => this.warn('origin', err));
  }

  /** Logs once per distinct error (a Redis outage would otherwise log on every tick). */
  private warn(what: string, err: unknown): void {
    const message = `shared market: ${what} failed: ${err instanceof Error ? err.message : String(err)}`;
    if (message === this.lastError) return;
    this.lastError = message;
    this.options.logger?.warn(message);
  }
}
