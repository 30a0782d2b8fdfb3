import { formatUnits, type Instrument, type SimulatorState, type Tick, type TickListener, Walk } from '../market';
import type { LeaseStore } from '../platform/jobs/leases';

/**
 * The job clock hook (CLOCK_HOOK=1, browser tests only): the server's clock made controllable, so a test moves time
 * instead of waiting for it. One clock is read by everything that reads time in the process (buildApp's `now`, the
 * job runner's leases, the market simulator, the feed), so the market and the jobs move together.
 *
 * Time flows as real time plus an offset that only ever grows: `advance` jumps it forward. The market has its own
 * switch: `ticking` (the simulator steps on its grid as usual; a jump steps it through the whole interval, so the
 * ticks of the jumped minutes exist and are recorded), or `held` (the simulator stands still: no ticks, while the
 * feed keeps running and its heartbeats keep the clients' prices fresh), which is how a test makes "no entry tick"
 * or "the feed was silent until expiry". `step` takes one step of a held market at the next grid time after now
 * (or several, stopping early at the first tick of a symbol at a given price: a test that needs an exit at the entry
 * price looks for it without a round trip per tick). A held interval is skipped, never stepped later: the record must
 * not show ticks in a time the market was silent.
 *
 * The driving process talks to it over Node's IPC channel (the e2e harness spawns the server with one): no HTTP
 * surface exists. Each answer comes after the trading engines have run a whole round since the jump (and, asked
 * with `record`, after the price record was written up to it), so a test that waits for the answer waits for
 * what the server does about the new time.
 */

export type MarketMode = 'ticking' | 'held';

/** What the driving process sends. `id` comes back in the answer. */
export type ClockRequest =
  | { clock: 'advance'; id?: number; ms: number; market: MarketMode; record?: boolean }
  | { clock: 'step'; id?: number; record?: boolean; count?: number; until?: { symbol: string; price: string } }
  | { clock: 'ahead'; id?: number; symbol: string; count: number }
  | { clock: 'now'; id?: number };

/** A tick as a test reads it: the price as exact decimal text. */
export interface HookTick {
  symbol: string;
  seq: number;
  ts: number;
  price: string;
}

export type ClockAnswer =
  | {
      clock: 'advanced';
      id?: number;
      /** Server time after the request. */
      now: number;
      /** How far the request moved the clock (a step moves it to the market's next grid time). */
      advancedBy: number;
      market: MarketMode;
      /** The last tick per symbol that the request made the market publish (none while held). */
      ticks: Record<string, HookTick>;
    }
  | {
      clock: 'ahead';
      id?: number;
      /** The prices of `symbol` that the market's next `count` steps will publish, first the next. */
      prices: string[];
    }
  | { clock: 'error'; id?: number; message: string };

/** Real time plus a forward-only offset; the market's time stands still while it is held. */
export class HookClock {
  private offset = 0;
  private heldAt: number | null = null;

  constructor(private readonly real: () => number = Date.now) {}

  /** The server's time: buildApp's `now`, the leases, the feed. */
  readonly now = (): number => this.real() + this.offset;

  /** The simulator's time: the server's, or the moment the market was held. */
  readonly marketNow = (): number => this.heldAt ?? this.now();

  get market(): MarketMode {
    return this.heldAt === null ? 'ticking' : 'held';
  }

  /** How far the clock has been moved in all. */
  get jumped(): number {
    return this.offset;
  }

  jump(ms: number): void {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new Error(`the clock only moves forward by whole ms, got ${ms}`);
    this.offset += ms;
  }

  hold(at: number = this.now()): void {
    this.heldAt = at;
  }

  release(): void {
    this.heldAt = null;
  }
}

/** What the hook needs of the market simulator (server/market/simulator.ts MarketSimulator). */
export interface SteppableMarket {
  readonly instruments: readonly Instrument[];
  subscribe(listener: TickListener): () => void;
  advanceTo(ts: number): void;
  snapshot(): SimulatorState;
  restore(state: SimulatorState): void;
}

/**
 * The job runner's leases, watched: a cluster job takes its lease at the start of every round and never overlaps a
 * round with the next, so the second lease a job takes after a moment means one whole round of it ran after that
 * moment. (A round that outlives a third of its lease renews it in between and counts twice; the engines' and the
 * record's rounds are far shorter.)
 */
export class WatchedLeases implements LeaseStore {
  private readonly taken = new Map<string, number>();
  private readonly waiters = new Set<{ name: string; count: number; done: () => void }>();

  constructor(private readonly inner: LeaseStore) {}

  async acquire(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const held = await this.inner.acquire(name, owner, ttlMs);
    const count = (this.taken.get(name) ?? 0) + 1;
    this.taken.set(name, count);
    for (const waiter of this.waiters) {
      if (waiter.name === name && count >= waiter.count) {
        this.waiters.delete(waiter);
        waiter.done();
      }
    }
    return held;
  }

  release(name: string, owner: string): Promise<void> {
    return this.inner.release(name, owner);
  }

  /** Resolves once job `job` has run a whole round that started after this call; rejects after `limitMs`. */
  wholeRound(job: string, limitMs: number): Promise<void> {
    const name = `job:${job}`;
    const count = (this.taken.get(name) ?? 0) + 2;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`job ${job} ran no round within ${limitMs} ms`));
      }, limitMs);
      const waiter = {
        name,
        count,
        done: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.waiters.add(waiter);
    });
  }
}

export interface ClockHookOptions {
  clock: HookClock;
  market: SteppableMarket;
  leases: WatchedLeases;
  /** The jobs an answer waits for: one whole round of each after the jump. */
  engines: readonly string[];
  /** The job that writes the price record (waited for first when a request asks for `record`). */
  recorder: string;
  /** How long an answer waits for a job's round before it answers with an error. */
  roundLimitMs?: number;
}

/** The simulator's catch-up limit (SimulatorOptions.maxCatchUpSteps): a longer ticking jump would skip ticks. */
export const MAX_TICKING_JUMP_MS = 600_000;

/** Takes the requests one at a time (in arrival order) and answers each. */
export class ClockHook {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ClockHookOptions) {}

  handle(request: ClockRequest): Promise<ClockAnswer> {
    const answer = this.queue.then(() => this.run(request));
    this.queue = answer.catch(() => undefined);
    return answer.catch((err: unknown) => ({
      clock: 'error' as const,
      ...(request.id === undefined ? {} : { id: request.id }),
      message: err instanceof Error ? err.message : String(err),
    }));
  }

  private async run(request: ClockRequest): Promise<ClockAnswer> {
    if (request.clock === 'ahead') {
      return {
        clock: 'ahead',
        ...(request.id === undefined ? {} : { id: request.id }),
        prices: this.ahead(request.symbol, request.count),
      };
    }
    const { clock } = this.options;
    const published = new Map<string, Tick>();
    const unsubscribe = this.options.market.subscribe((tick) => published.set(tick.symbol, tick));
    const before = clock.jumped;
    try {
      if (request.clock === 'advance') this.advance(request.ms, request.market);
      else if (request.clock === 'step') this.steps(request.count ?? 1, request.until, published);
      else if (request.clock !== 'now') throw new Error(`unknown clock request ${JSON.stringify(request)}`);
    } finally {
      unsubscribe();
    }
    if (request.clock !== 'now') await this.settle(request.record === true && published.size > 0);
    return {
      clock: 'advanced',
      ...(request.id === undefined ? {} : { id: request.id }),
      now: clock.now(),
      advancedBy: clock.jumped - before,
      market: clock.market,
      ticks: Object.fromEntries([...published].map(([symbol, tick]) => [symbol, this.hookTick(tick)])),
    };
  }

  private advance(ms: number, market: MarketMode): void {
    const { clock } = this.options;
    if (market !== 'ticking' && market !== 'held') throw new Error(`market must be ticking or held, got ${market}`);
    if (market === 'held') {
      this.holdMarket();
      clock.jump(ms);
      return;
    }
    if (ms > MAX_TICKING_JUMP_MS) throw new Error(`a ticking jump is at most ${MAX_TICKING_JUMP_MS} ms, got ${ms}`);
    // Out of a hold, the market goes on from now: the silent interval gets no ticks afterwards.
    if (clock.market === 'held') this.skipTo(clock.now());
    clock.release();
    clock.jump(ms);
    this.options.market.advanceTo(clock.now());
  }

  /** Up to `count` steps, each at the next grid time; the first whose tick of `until.symbol` is at its price ends it. */
  private steps(
    count: number,
    until: { symbol: string; price: string } | undefined,
    published: Map<string, Tick>,
  ): void {
    if (!Number.isSafeInteger(count) || count < 1 || count > 600) throw new Error(`steps: 1 to 600, got ${count}`);
    for (let k = 0; k < count; k++) {
      this.step();
      const tick = until && published.get(until.symbol);
      if (tick && this.hookTick(tick).price === until.price) return;
    }
  }

  /** One step of the market at the next grid time after now, the clock moved there; the market stays held. */
  private step(): void {
    const { clock, market } = this.options;
    this.holdMarket();
    const next = this.skipTo(clock.now());
    clock.jump(Math.max(0, next - clock.now()));
    clock.hold(next);
    market.advanceTo(next);
  }

  /**
   * The walk's own next steps, taken on a copy (the market and its listeners see nothing): the walk is seeded and
   * steps once per grid time whenever that comes, so a held market's next `count` steps publish exactly these. A
   * test that needs a price to come back (an exit at the entry price) plans its steps on them instead of hoping.
   */
  private ahead(symbol: string, count: number): string[] {
    if (!Number.isSafeInteger(count) || count < 1 || count > 3_600) throw new Error(`ahead: 1 to 3600, got ${count}`);
    const { market, clock } = this.options;
    // A ticking market steps on its own meanwhile: the answer would be stale on arrival.
    if (clock.market !== 'held') throw new Error('ahead: the market is ticking; hold it first');
    const state = market.snapshot();
    const instrument = market.instruments.find((i) => i.symbol === symbol);
    const saved = state.walks.find((w) => w.symbol === symbol);
    if (!instrument || !saved) throw new Error(`ahead: no walk of ${symbol}`);
    // A stock skips the steps outside its hours, a listed coin waits for its listing: only a coin walking every step
    // is foretold by stepping the copy `count` times.
    if (instrument.hours !== 'always' || saved.walk.opened === false)
      throw new Error(`ahead: ${symbol} does not step every grid time`);
    const copy = new Walk(instrument, 'ahead');
    copy.state = saved.walk;
    const prices: string[] = [];
    for (let k = 0; k < count; k++)
      prices.push(formatUnits(copy.step(state.stepMs / 60_000).price, instrument.priceScale));
    return prices;
  }

  /** Holds a ticking market where it is now (the steps already due taken first). */
  private holdMarket(): void {
    const { clock, market } = this.options;
    if (clock.market === 'held') return;
    market.advanceTo(clock.now());
    clock.hold();
  }

  /** Moves the simulator's next step to the first grid time after `ts` (skipping a silent interval); returns it. */
  private skipTo(ts: number): number {
    const { market } = this.options;
    const state = market.snapshot();
    if (state.nextStep > ts) return state.nextStep;
    const next = state.nextStep + (Math.floor((ts - state.nextStep) / state.stepMs) + 1) * state.stepMs;
    market.restore({ ...state, nextStep: next });
    return next;
  }

  /** Waits for the record (when asked and something ticked), then for a whole round of every engine. */
  private async settle(record: boolean): Promise<void> {
    const { leases, engines, recorder } = this.options;
    const limit = this.options.roundLimitMs ?? 15_000;
    if (record) await leases.wholeRound(recorder, limit);
    await Promise.all(engines.map((job) => leases.wholeRound(job, limit)));
  }

  private hookTick(tick: Tick): HookTick {
    const instrument = this.options.market.instruments.find((i) => i.symbol === tick.symbol);
    return {
      symbol: tick.symbol,
      seq: tick.seq,
      ts: tick.ts,
      price: instrument ? formatUnits(tick.price, instrument.priceScale) : String(tick.price),
    };
  }
}

/**
 * Listens on this process's IPC channel (only when there is one): each message that is a clock request is
 * answered on it. The channel does not keep the process alive.
 */
export function listenForClockRequests(hook: ClockHook, channel: NodeJS.Process = process): boolean {
  if (!channel.send) return false;
  channel.on('message', (message: unknown) => {
    if (!isClockRequest(message)) return;
    void hook.handle(message).then((answer) => channel.send?.(answer));
  });
  channel.channel?.unref();
  return true;
}

function isClockRequest(message: unknown): message is ClockRequest {
  return typeof message === 'object' && message !== null && 'clock' in message;
}
