import type { Timeframe } from '../../protocol/market';
import type { Bar } from './candles';
import { buildFarHistory, type FarHistory, isLongTimeframe } from './far-history';
import type { PriceSource, Tick, TickListener } from './feed';
import { INSTRUMENTS, type Instrument, isTrading } from './instruments';
import type { ListedInstrument } from './listing/registry';
import { Walk, type WalkState } from './walk';

export type { PriceSource, Tick, TickListener } from './feed';
export * from './walk';

export interface SimulatorOptions {
  seed: string;
  now?: () => number;
  /** Live step: every instrument that trades gets one tick per step. */
  stepMs?: number;
  /** Days of deterministic history before the first live tick. */
  backfillDays?: number;
  /** Step of the history (coarser than live to keep start-up fast). */
  backfillStepMs?: number;
  /** Stocks trade around the clock (demos); otherwise only in NYSE regular hours. */
  alwaysOpen?: boolean;
  instruments?: readonly Instrument[];
  /** Coins listed at run time, after `instruments` (server/market/listing): each walks from its listing on. */
  listed?: readonly ListedInstrument[];
  /** Most steps one `advanceTo` catches up; beyond it the feed skips ahead (e.g. after the machine slept). */
  maxCatchUpSteps?: number;
  /**
   * Live start (ms, on the minute grid): another process's simulator with the same seed and live start gives
   * the same history and live ticks (the shared feed, server/market/shared). Default: now, rounded down to the minute.
   */
  liveStart?: number;
  /**
   * Per symbol, the sequence number to continue above (the price record's last, server/market/price-chain.ts
   * lastRecordedSeqs): a restarted simulator walks again from its start, and its ticks must not reuse numbers the
   * record already holds with other times and prices.
   */
  startSeqs?: ReadonlyMap<string, number>;
}

const MINUTE = 60_000;

/** Where a simulator is in its walk: with the same seed, instruments and step, restoring it continues the walk. */
export interface SimulatorState {
  stepMs: number;
  /** Start of the next live step. */
  nextStep: number;
  walks: { symbol: string; seq: number; walk: WalkState }[];
}

/**
 * The seeded market simulator: the same seed and start time give the same history and the same live ticks.
 * The tick history starts `backfillDays` before the start (rounded down to the minute); live steps follow on a
 * fixed grid, so the sequence does not depend on timer jitter. Before the tick history lies the far past, as daily,
 * weekly and monthly bars only (`history`), so the long timeframes have years of candles.
 */
export class MarketSimulator implements PriceSource {
  private readonly list: Instrument[] = [];
  private readonly walks: Walk[] = [];
  private readonly seqs: number[] = [];
  private readonly listeners = new Set<{ fn: TickListener; symbol: string | undefined }>();
  private readonly seed: string;
  private readonly startSeqs: ReadonlyMap<string, number> | undefined;
  private readonly now: () => number;
  private readonly stepMs: number;
  private readonly backfillStepMs: number;
  private readonly alwaysOpen: boolean;
  private readonly maxCatchUpSteps: number;
  /** Live start; history covers [historyStart, liveStart). */
  readonly liveStart: number;
  readonly historyStart: number;
  private nextStep: number;
  private timer: NodeJS.Timeout | undefined;
  private backfilled = false;
  /** Per static instrument, its far past (far-history.ts), built on its first request. */
  private readonly far = new Map<string, FarHistory>();

  constructor(options: SimulatorOptions) {
    this.seed = options.seed;
    this.startSeqs = options.startSeqs;
    this.now = options.now ?? Date.now;
    this.stepMs = options.stepMs ?? 1_000;
    this.backfillStepMs = options.backfillStepMs ?? 15_000;
    this.alwaysOpen = options.alwaysOpen ?? false;
    this.maxCatchUpSteps = options.maxCatchUpSteps ?? 600;
    this.liveStart = options.liveStart ?? Math.floor(this.now() / MINUTE) * MINUTE;
    this.historyStart = this.liveStart - (options.backfillDays ?? 7) * 1_440 * MINUTE;
    this.nextStep = this.liveStart;
    for (const instrument of options.instruments ?? INSTRUMENTS) this.addWalk(instrument, Number.NEGATIVE_INFINITY);
    for (const { instrument, listedAt } of options.listed ?? []) this.addInstrument(instrument, listedAt);
  }

  /** What it walks: the static instruments it was made with, then the listed coins. */
  get instruments(): readonly Instrument[] {
    return this.list;
  }

  subscribe(listener: TickListener, symbol?: string): () => void {
    const entry = { fn: listener, symbol };
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  /**
   * Walks a coin listed at run time: its listing trade at its start price at `listedAt`, then one step at every step
   * of the grid after it, as a simulator that had it from its start would take them. So every process of a shared
   * market walks the same prices for it, whenever each learns of it. Steps it missed (a listing time in the past, or
   * a process that learns late) are taken at once and published; a listing time between the last step and now opens
   * it at once, so it has a quote before the next step. A symbol walked already is ignored.
   */
  addInstrument(instrument: Instrument, listedAt: number): void {
    if (!Number.isSafeInteger(listedAt)) throw new Error(`listing time of ${instrument.symbol}: ${listedAt}`);
    if (this.list.some((i) => i.symbol === instrument.symbol)) return;
    const k = this.addWalk(instrument, listedAt);
    // Before the backfill there is nothing to catch up: the history and the live steps will include it.
    if (this.backfilled) this.catchUp(k);
  }

  /** Generates the history once (oldest first) into `onTick`; a second call does nothing. */
  backfill(onTick: TickListener): void {
    if (this.backfilled) return;
    this.backfilled = true;
    for (let ts = this.historyStart; ts < this.liveStart; ts += this.backfillStepMs) {
      this.stepAll(ts, this.backfillStepMs, onTick);
    }
  }

  /**
   * The far past before `historyStart` of a static instrument on a long timeframe (far-history.ts), oldest first; it
   * ends where the tick history starts, at the instrument's start price. Built per instrument on its first request:
   * most server starts (tests) never draw a long chart, and none pays for the instruments nobody looks at. Empty for
   * the shorter timeframes (the tick history fills them) and for coins listed at run time (no past before listing).
   */
  history(symbol: string, timeframe: Timeframe): readonly Bar[] {
    if (!isLongTimeframe(timeframe)) return [];
    let far = this.far.get(symbol);
    if (!far) {
      const walk = this.walks.find((w) => w.instrument.symbol === symbol);
      if (!walk || walk.listedAt !== Number.NEGATIVE_INFINITY) return [];
      far = buildFarHistory(walk.instrument, {
        seed: this.seed,
        until: this.historyStart,
        alwaysOpen: this.alwaysOpen,
        stepMs: this.backfillStepMs,
      });
      this.far.set(symbol, far);
    }
    return far[timeframe];
  }

  /** Where the walk is now (between steps): see `restore`. */
  snapshot(): SimulatorState {
    return {
      stepMs: this.stepMs,
      nextStep: this.nextStep,
      walks: this.walks.map((walk, k) => ({
        symbol: walk.instrument.symbol,
        seq: this.seqs[k] ?? 0,
        walk: walk.state,
      })),
    };
  }

  /**
   * Puts the walk where another simulator of the same market was (its `snapshot`): the history and the steps
   * before it count as done, so a process joining a long-running market starts there instead of replaying every
   * step since the origin. Throws, before anything changes, when the state is of another market shape (other
   * instruments or step). A listed coin the state lacks (listed after it was taken, or before its simulator learnt
   * of it) walks from its listing as `addInstrument` would have, publishing its ticks.
   */
  restore(state: SimulatorState): void {
    const index = new Map(this.walks.map((w, k) => [w.instrument.symbol, k]));
    const saved = new Set(state.walks.map((w) => w.symbol));
    const fits =
      saved.size === state.walks.length &&
      state.walks.every((w) => index.has(w.symbol)) &&
      this.walks.every((w) => saved.has(w.instrument.symbol) || w.listedAt !== Number.NEGATIVE_INFINITY);
    if (state.stepMs !== this.stepMs || !fits) {
      throw new Error('simulator state of another market (instruments or step differ)');
    }
    if ((state.nextStep - this.liveStart) % this.stepMs !== 0 || state.nextStep < this.liveStart) {
      throw new Error("simulator state off this market's step grid");
    }
    for (const w of state.walks) {
      const k = index.get(w.symbol) as number;
      (this.walks[k] as Walk).state = w.walk;
      this.seqs[k] = w.seq;
    }
    this.nextStep = state.nextStep;
    this.backfilled = true;
    for (let k = 0; k < this.walks.length; k++) {
      const walk = this.walks[k] as Walk;
      if (saved.has(walk.instrument.symbol)) continue;
      this.walks[k] = new Walk(walk.instrument, this.seed, walk.listedAt);
      this.seqs[k] = this.startSeqs?.get(walk.instrument.symbol) ?? 0;
      this.catchUp(k);
    }
  }

  /** Runs every live step up to `ts` (a fake clock drives this in tests; the timer in production). */
  advanceTo(ts: number): void {
    if (!this.backfilled) this.backfill(() => {});
    const due = Math.floor((ts - this.nextStep) / this.stepMs) + 1;
    if (due > this.maxCatchUpSteps) this.nextStep += (due - this.maxCatchUpSteps) * this.stepMs;
    while (this.nextStep <= ts) {
      this.stepAll(this.nextStep, this.stepMs, (tick) => this.publish(tick));
      this.nextStep += this.stepMs;
    }
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.advanceTo(this.now()), Math.min(this.stepMs, 250));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A static instrument walks from the history's start; a coin listed before it, from there too. */
  private addWalk(instrument: Instrument, listedAt: number): number {
    const from = listedAt === Number.NEGATIVE_INFINITY ? listedAt : Math.max(listedAt, this.historyStart);
    this.walks.push(new Walk(instrument, this.seed, from));
    this.list.push(instrument);
    this.seqs.push(this.startSeqs?.get(instrument.symbol) ?? 0);
    return this.walks.length - 1;
  }

  /** The steps that walk `k`, added after the backfill, has missed: the history's, then the live ones, published. */
  private catchUp(k: number): void {
    const walk = this.walks[k] as Walk;
    const publish = (tick: Tick) => this.publish(tick);
    const history = gridFrom(this.historyStart, this.backfillStepMs, walk.listedAt);
    for (let ts = history; ts < this.liveStart; ts += this.backfillStepMs) {
      this.stepWalk(k, ts, this.backfillStepMs, publish);
    }
    for (let ts = gridFrom(this.liveStart, this.stepMs, walk.listedAt); ts < this.nextStep; ts += this.stepMs) {
      this.stepWalk(k, ts, this.stepMs, publish);
    }
    if (!walk.isOpen && walk.listedAt <= this.now()) this.openWalk(k, publish);
  }

  private stepAll(ts: number, dtMs: number, onTick: TickListener): void {
    for (let k = 0; k < this.walks.length; k++) this.stepWalk(k, ts, dtMs, onTick);
  }

  /** Walk `k`'s step at `ts`; a listed coin's first step at or after its listing time opens it first. */
  private stepWalk(k: number, ts: number, dtMs: number, onTick: TickListener): void {
    const walk = this.walks[k] as Walk;
    // Outside its hours an instrument stands still: no step, no tick.
    if (!isTrading(walk.instrument, ts, this.alwaysOpen)) return;
    if (!walk.isOpen) {
      if (ts < walk.listedAt) return;
      this.openWalk(k, onTick);
    }
    // Only steps after the listing move it, also when its listing trade came early (catchUp): the same steps in
    // every process, whenever it opened there.
    if (ts <= walk.listedAt) return;
    const { price, qty, side } = walk.step(dtMs / MINUTE);
    this.emit(k, ts, price, qty, side, onTick);
  }

  private openWalk(k: number, onTick: TickListener): void {
    const walk = this.walks[k] as Walk;
    const { price, qty, side } = walk.open();
    this.emit(k, walk.listedAt, price, qty, side, onTick);
  }

  private emit(k: number, ts: number, price: number, qty: number, side: Tick['side'], onTick: TickListener): void {
    const instrument = (this.walks[k] as Walk).instrument;
    const seq = (this.seqs[k] ?? 0) + 1;
    this.seqs[k] = seq;
    onTick({ symbol: instrument.symbol, instrumentId: instrument.id, ts, price, qty, side, seq });
  }

  private publish(tick: Tick): void {
    for (const { fn, symbol } of this.listeners) {
      if (symbol === undefined || symbol === tick.symbol) fn(tick);
    }
  }
}

/** The first step of the grid `start + n * step` (n >= 0) at or after `ts`. */
function gridFrom(start: number, step: number, ts: number): number {
  return ts <= start ? start : start + Math.ceil((ts - start) / step) * step;
}
