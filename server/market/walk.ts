import { type Instrument, parseUnits } from './instruments';

/**
 * One instrument's seeded random walk and the generator behind it (split from simulator.ts, which steps the walks of
 * a whole market on its grid and publishes their ticks).
 */

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

/** Standard normal from two uniforms (Box–Muller). */
export function gaussian(rng: Sfc32): number {
  const u = 1 - rng.next();
  const v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

export interface WalkState {
  rng: RngState;
  logPrice: number;
  logVol: number;
  /** Only on a listed coin's walk that has not had its listing trade yet. */
  opened?: false;
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
  private opened: boolean;

  /**
   * `listedAt`: a coin listed at run time opens with one trade at its start price at that time (`open`), then walks
   * from there; a static instrument (no listing time) walks from its first step.
   */
  constructor(
    readonly instrument: Instrument,
    seed: string,
    readonly listedAt = Number.NEGATIVE_INFINITY,
  ) {
    this.rng = Sfc32.fromSeed(`${seed}:${instrument.symbol}`);
    this.scale = 10 ** instrument.priceScale;
    this.logPrice = Math.log(parseUnits(instrument.startPrice, instrument.priceScale) / this.scale);
    this.opened = listedAt === Number.NEGATIVE_INFINITY;
  }

  /** False until a listed coin's listing trade. */
  get isOpen(): boolean {
    return this.opened;
  }

  /** The listing trade: exactly the start price (the walk's price already), a buy of a typical size. */
  open(): { price: number; qty: number; side: 'buy' | 'sell' } {
    this.opened = true;
    return {
      price: parseUnits(this.instrument.startPrice, this.instrument.priceScale),
      qty: this.tradeQty(),
      side: 'buy',
    };
  }

  /**
   * Everything the next steps depend on. The floats go through JSON unchanged (it writes the shortest text that
   * reads back as the same double), so a restored walk takes exactly the steps this one would have taken.
   */
  get state(): WalkState {
    return {
      rng: this.rng.state,
      logPrice: this.logPrice,
      logVol: this.logVol,
      ...(this.opened ? {} : { opened: false }),
    };
  }

  set state(state: WalkState) {
    this.rng.state = state.rng;
    this.logPrice = state.logPrice;
    this.logVol = state.logVol;
    this.opened = state.opened !== false;
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
    const qty = this.tradeQty();
    const side = move > 0 ? 'buy' : move < 0 ? 'sell' : rng.next() < 0.5 ? 'buy' : 'sell';
    return { price, qty, side };
  }

  /** A synthetic trade's size in quantity units: log-normal around the instrument's typical size. */
  private tradeQty(): number {
    const i = this.instrument;
    return Math.max(1, Math.round(i.tradeSize * Math.exp(0.8 * gaussian(this.rng)) * 10 ** i.qtyScale));
  }
}
