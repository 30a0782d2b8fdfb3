import type { MarketFeed } from './feed';
import { INSTRUMENTS, type Instrument, isTrading, parseUnits } from './instruments';

/** One published price with the synthetic trade behind it. Price in ticks, qty in quantity units. */
export interface Tick {
  symbol: string;
  instrumentId: number;
  ts: number;
  price: number;
  qty: number;
  side: 'buy' | 'sell';
  /** Per-instrument sequence, +1 per tick, counted from the start of the history. */
  seq: number;
}

export type TickListener = (tick: Tick) => void;

/**
 * Where prices come from. The seeded simulator is the embedded one; a live exchange adapter implements the
 * same interface. `backfill` replays history (oldest first) before the first live tick, if the source keeps history;
 * the feed passes itself too, so a source that has the feed's state at hand (the shared market's snapshot) can load
 * it instead of replaying the ticks behind it.
 */
export interface PriceSource {
  readonly instruments: readonly Instrument[];
  /** Every tick, or only those of `symbol`; returns the unsubscribe function. */
  subscribe(listener: TickListener, symbol?: string): () => void;
  backfill?(onTick: TickListener, feed?: MarketFeed): void;
  start(): void;
  stop(): void;
}

/** The four 32-bit words of an sfc32 generator: all of its state. */
export type RngState = [number, number, number, number];

/** sfc32: small, fast, the same numbers on every platform, and its state is four integers (a snapshot can carry it). */
export class Sfc32 {
  constructor(
    private a: number,
    private b: number,
    private c: number,
    private d: number,
  ) {}

  /** Seeded through cyrb128. */
  static fromSeed(seed: string): Sfc32 {
    let h1 = 1779033703;
    let h2 = 3144134277;
    let h3 = 1013904242;
    let h4 = 2773480762;
    for (let i = 0; i < seed.length; i++) {
      const k = seed.charCodeAt(i);
      h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
      h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
      h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
      h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
    }
    h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
    h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
    h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
    h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
    return new Sfc32((h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0);
  }

  next(): number {
    const a = this.a | 0;
    const b = this.b | 0;
    const c = this.c | 0;
    const d = this.d | 0;
    const t = (((a + b) | 0) + d) | 0;
    this.d = (d + 1) | 0;
    this.a = b ^ (b >>> 9);
    const c2 = (c + (c << 3)) | 0;
    this.b = c2;
    this.c = (((c << 21) | (c >>> 11)) + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  get state(): RngState {
    return [this.a | 0, this.b | 0, this.c | 0, this.d | 0];
  }

  set state([a, b, c, d]: RngState) {
    this.a = a | 0;
    this.b = b | 0;
    this.c = c | 0;
    this.d = d | 0;
  }
}

/** sfc32 seeded through cyrb128, as a function. */
export function createRng(seed: string): () => number {
  const rng = Sfc32.fromSeed(seed);
  return () => rng.next();
}

/** Standard normal from two uniforms (Box–Muller). */
function gaussian(rng: Sfc32): number {
  const u = 1 - rng.next();
  const v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

export interface WalkState {
  rng: RngState;
  logPrice: number;
  logVol: number;
}

export const STABLE_MIN = 0.995;
export const STABLE_MAX = 1.005;

/**
 * One instrument's random walk. Floats drive it internally; what leaves is snapped to whole ticks.
 * Volatility is stochastic (its log mean-reverts, so calm and hectic regimes alternate) and rare jumps
 * happen; stablecoins follow a tight Ornstein–Uhlenbeck process around 1.
 */
export class Walk {
  private readonly rng: Sfc32;
  private logPrice: number;
  private logVol = 0;
  private readonly scale: number;

  constructor(
    readonly instrument: Instrument,
    seed: string,
  ) {
    this.rng = Sfc32.fromSeed(`${seed}:${instrument.symbol}`);
    this.scale = 10 ** instrument.priceScale;
    this.logPrice = Math.log(parseUnits(instrument.startPrice, instrument.priceScale) / this.scale);
  }

  /**
   * Everything the next steps depend on. The floats go through JSON unchanged (it writes the shortest text that
   * reads back as the same double), so a restored walk takes exactly the steps this one would have taken.
   */
  get state(): WalkState {
    return { rng: this.rng.state, logPrice: this.logPrice, logVol: this.logVol };
  }

  set state(state: WalkState) {
    this.rng.state = state.rng;
    this.logPrice = state.logPrice;
    this.logVol = state.logVol;
  }

  /** Moves the walk by `dtMinutes` and returns the new price in ticks and a synthetic trade. */
  step(dtMinutes: number): { price: number; qty: number; side: 'buy' | 'sell' } {
    const i = this.instrument;
    const rng = this.rng;
    // The walk is float maths (a model of a market, not money). Math.round snaps each result to a whole number of
    // ticks or quantity units: from there on every price is an exact integer, published as a decimal string.
    const sqrtDt = Math.sqrt(dtMinutes);
    let price: number;
    let move: number;
    if (i.stable) {
      const x = Math.exp(this.logPrice);
      const next = x + 0.05 * dtMinutes * (1 - x) + 0.00015 * sqrtDt * gaussian(rng);
      const bounded = Math.min(STABLE_MAX - 0.0005, Math.max(STABLE_MIN + 0.0005, next));
      move = bounded - x;
      this.logPrice = Math.log(bounded);
      price = Math.round(bounded * this.scale);
    } else {
      // Log-volatility mean-reverts to 0 with a half-life of about an hour: regimes change over the day.
      this.logVol += -0.012 * dtMinutes * this.logVol + 0.06 * sqrtDt * gaussian(rng);
      this.logVol = Math.min(1.6, Math.max(-1.2, this.logVol));
      const sigma = i.sigmaPerMinute * Math.exp(this.logVol);
      move = sigma * sqrtDt * gaussian(rng) - 0.5 * sigma * sigma * dtMinutes;
      // About one jump a day: a few percent, either way.
      if (rng.next() < dtMinutes / 1_440) move += 0.02 * gaussian(rng);
      this.logPrice += move;
      // Keep far from zero and from absurd heights (a bounded toy market, not a model of ruin).
      const start = Math.log(parseUnits(i.startPrice, i.priceScale) / this.scale);
      this.logPrice = Math.min(start + 2.3, Math.max(start - 2.3, this.logPrice));
      price = Math.max(1, Math.round(Math.exp(this.logPrice) * this.scale));
    }
    const qty = Math.max(1, Math.round(i.tradeSize * Math.exp(0.8 * gaussian(rng)) * 10 ** i.qtyScale));
    const side = move > 0 ? 'buy' : move < 0 ? 'sell' : rng.next() < 0.5 ? 'buy' : 'sell';
    return { price, qty, side };
  }
}

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
 * The history starts `backfillDays` before the start (rounded down to the minute); live steps follow on a
 * fixed grid, so the sequence does not depend on timer jitter.
 */
export class MarketSimulator implements PriceSource {
  readonly instruments: readonly Instrument[];
  private readonly walks: Walk[];
  private readonly seqs: number[];
  private readonly listeners = new Set<{ fn: TickListener; symbol: string | undefined }>();
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

  constructor(options: SimulatorOptions) {
    this.instruments = options.instruments ?? INSTRUMENTS;
    this.walks = this.instruments.map((i) => new Walk(i, options.seed));
    this.seqs = this.instruments.map((i) => options.startSeqs?.get(i.symbol) ?? 0);
    this.now = options.now ?? Date.now;
    this.stepMs = options.stepMs ?? 1_000;
    this.backfillStepMs = options.backfillStepMs ?? 15_000;
    this.alwaysOpen = options.alwaysOpen ?? false;
    this.maxCatchUpSteps = options.maxCatchUpSteps ?? 600;
    this.liveStart = options.liveStart ?? Math.floor(this.now() / MINUTE) * MINUTE;
    this.historyStart = this.liveStart - (options.backfillDays ?? 7) * 1_440 * MINUTE;
    this.nextStep = this.liveStart;
  }

  subscribe(listener: TickListener, symbol?: string): () => void {
    const entry = { fn: listener, symbol };
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  /** Generates the history once (oldest first) into `onTick`; a second call does nothing. */
  backfill(onTick: TickListener): void {
    if (this.backfilled) return;
    this.backfilled = true;
    for (let ts = this.historyStart; ts < this.liveStart; ts += this.backfillStepMs) {
      this.stepAll(ts, this.backfillStepMs, onTick);
    }
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
   * step since the origin. Throws when the state is of another market shape (other instruments or step).
   */
  restore(state: SimulatorState): void {
    const symbols = this.walks.map((w) => w.instrument.symbol).join(',');
    if (state.stepMs !== this.stepMs || state.walks.map((w) => w.symbol).join(',') !== symbols) {
      throw new Error('simulator state of another market (instruments or step differ)');
    }
    if ((state.nextStep - this.liveStart) % this.stepMs !== 0 || state.nextStep < this.liveStart) {
      throw new Error("simulator state off this market's step grid");
    }
    state.walks.forEach((w, k) => {
      (this.walks[k] as Walk).state = w.walk;
      this.seqs[k] = w.seq;
    });
    this.nextStep = state.nextStep;
    this.backfilled = true;
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

  private stepAll(ts: number, dtMs: number, onTick: TickListener): void {
    for (let k = 0; k < this.walks.length; k++) {
      const walk = this.walks[k] as Walk;
      const instrument = walk.instrument;
      // Outside its hours an instrument stands still: no step, no tick.
      if (!isTrading(instrument, ts, this.alwaysOpen)) continue;
      const { price, qty, side } = walk.step(dtMs / MINUTE);
      const seq = (this.seqs[k] ?? 0) + 1;
      this.seqs[k] = seq;
      onTick({ symbol: instrument.symbol, instrumentId: instrument.id, ts, price, qty, side, seq });
    }
  }

  private publish(tick: Tick): void {
    for (const { fn, symbol } of this.listeners) {
      if (symbol === undefined || symbol === tick.symbol) fn(tick);
    }
  }
}
