import type { Candle, Period, Quote, Timeframe, Trade } from '../../protocol/market';
import { type Bar, CandleBook, TIMEFRAME_LIST } from './candles';
import { formatUnits, type Instrument } from './instruments';
import { formatPercent, stats24h } from './stats';

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
  /**
   * Bars of `timeframe` from before the source's first tick, oldest first (the simulator's far past, as daily, weekly
   * and monthly bars: far-history.ts). The feed puts them under its own bars; a bucket in both is one candle.
   */
  history?(symbol: string, timeframe: Timeframe): readonly Bar[];
  /**
   * A coin listed while running (server/market/listing): the source serves it from `listedAt` on, at its start price
   * first. A source without it (a live exchange) never serves listed coins.
   */
  addInstrument?(instrument: Instrument, listedAt: number): void;
  start(): void;
  stop(): void;
}

const RECENT_TRADES = 200;

/**
 * What the feed serves, as plain data (the shared market's snapshot): per instrument the last tick, the recent trades
 * and every timeframe's bars, each bar as six integers in a row: t and o as steps from the previous bar's t and close,
 * then h - o, o - l, c - o and v. Small numbers make a compact JSON array: the leader writes it every few seconds.
 */
export interface FeedState {
  instruments: { symbol: string; last: Tick | undefined; trades: Tick[]; bars: Partial<Record<Timeframe, number[]>> }[];
}

interface InstrumentState {
  instrument: Instrument;
  book: CandleBook;
  trades: Tick[];
  last: Tick | undefined;
}

/**
 * The market as the server serves it: the price source's ticks folded into candles of every timeframe,
 * recent trades and 24 h statistics, all kept in memory and bounded. Published values are exact strings.
 */
export class MarketFeed {
  private readonly states = new Map<string, InstrumentState>();
  private readonly listeners = new Set<TickListener>();
  private readonly unsubscribe: () => void;
  private running = false;

  constructor(
    readonly source: PriceSource,
    private readonly now: () => number = Date.now,
  ) {
    for (const instrument of source.instruments) {
      this.states.set(instrument.symbol, { instrument, book: new CandleBook(), trades: [], last: undefined });
    }
    source.backfill?.((tick) => this.apply(tick), this);
    this.unsubscribe = source.subscribe((tick) => {
      this.apply(tick);
      for (const listener of this.listeners) listener(tick);
    });
  }

  /** Every live tick, after the feed has applied it. */
  onTick(listener: TickListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    this.running = true;
    this.source.start();
  }

  stop(): void {
    this.running = false;
    this.source.stop();
  }

  close(): void {
    this.stop();
    this.unsubscribe();
  }

  get isRunning(): boolean {
    return this.running;
  }

  /**
   * Serves `instrument` from now on: a coin listed at run time, which its source (the simulator) starts at its start
   * price at `listedAt` (server/market/listing). The feed knows it first, so the ticks the source publishes at once
   * (its listing trade, steps it caught up on) are applied. False when the feed serves it already.
   */
  addInstrument(instrument: Instrument, listedAt: number): boolean {
    if (this.states.has(instrument.symbol)) return false;
    this.states.set(instrument.symbol, { instrument, book: new CandleBook(), trades: [], last: undefined });
    this.source.addInstrument?.(instrument, listedAt);
    return true;
  }

  instruments(kind?: Instrument['kind']): Instrument[] {
    return [...this.states.values()].map((s) => s.instrument).filter((i) => !kind || i.kind === kind);
  }

  instrument(symbol: string): Instrument | undefined {
    return this.states.get(symbol)?.instrument;
  }

  quote(symbol: string): Quote | undefined {
    const state = this.states.get(symbol);
    if (!state?.last) return undefined;
    const { instrument: i, last } = state;
    const stats = stats24h(state.book.series['1min'].since(this.now() - 86_400_000), this.now());
    const open = stats?.open ?? last.price;
    return {
      symbol: i.symbol,
      id: i.id,
      last: formatUnits(last.price, i.priceScale),
      open: formatUnits(open, i.priceScale),
      high: formatUnits(stats?.high ?? last.price, i.priceScale),
      low: formatUnits(stats?.low ?? last.price, i.priceScale),
      change_pct: formatPercent(stats?.changeBp ?? 0),
      volume: formatUnits(stats?.volume ?? 0, i.qtyScale),
      ts: last.ts,
      seq: last.seq,
    };
  }

  quotes(kind: Instrument['kind']): Quote[] {
    return this.instruments(kind).flatMap((i) => this.quote(i.symbol) ?? []);
  }

  /**
   * The newest `limit` candles of `period` (the time-share line is the 1-minute series). When the feed's own bars are
   * fewer, the source's older ones (`PriceSource.history`) come first; once a series is full it has dropped its oldest
   * bars, and the source's would no longer join it, so they stay out (a full series holds enough anyway).
   */
  candles(symbol: string, period: Period, limit: number): Candle[] {
    const state = this.states.get(symbol);
    if (!state) return [];
    const timeframe: Timeframe = period === 'timeshare' ? '1min' : period;
    const series = state.book.series[timeframe];
    let bars = series.latest(limit);
    if (bars.length < limit && !series.full && this.source.history) {
      bars = joinHistory(this.source.history(symbol, timeframe), bars, limit);
    }
    return bars.map((bar) => this.formatBar(state.instrument, bar));
  }

  /** Newest first. */
  trades(symbol: string, limit: number): Trade[] {
    const state = this.states.get(symbol);
    if (!state) return [];
    return state.trades
      .slice(-limit)
      .reverse()
      .map((tick) => this.formatTrade(state.instrument, tick));
  }

  formatTrade(i: Instrument, tick: Tick): Trade {
    return {
      id: `${i.symbol}-${tick.seq}`,
      price: formatUnits(tick.price, i.priceScale),
      qty: formatUnits(tick.qty, i.qtyScale),
      side: tick.side,
      ts: tick.ts,
    };
  }

  formatBar(i: Instrument, bar: Bar): Candle {
    return {
      t: bar.t,
      o: formatUnits(bar.o, i.priceScale),
      h: formatUnits(bar.h, i.priceScale),
      l: formatUnits(bar.l, i.priceScale),
      c: formatUnits(bar.c, i.priceScale),
      v: formatUnits(bar.v, i.qtyScale),
    };
  }

  /** Everything the feed serves, bounded as the feed itself is (see `importState`). */
  exportState(): FeedState {
    return {
      instruments: [...this.states.values()].map((state) => {
        const bars: Partial<Record<Timeframe, number[]>> = {};
        for (const tf of TIMEFRAME_LIST) {
          const series = state.book.series[tf];
          // One flat array filled in place: the leader takes this every few seconds, over thousands of bars.
          const list = series.since(Number.NEGATIVE_INFINITY);
          const flat = new Array<number>(list.length * 6);
          let t = 0;
          let c = 0;
          for (let k = 0; k < list.length; k++) {
            const b = list[k] as Bar;
            flat[6 * k] = b.t - t;
            flat[6 * k + 1] = b.o - c;
            flat[6 * k + 2] = b.h - b.o;
            flat[6 * k + 3] = b.o - b.l;
            flat[6 * k + 4] = b.c - b.o;
            flat[6 * k + 5] = b.v;
            t = b.t;
            c = b.c;
          }
          bars[tf] = flat;
        }
        return { symbol: state.instrument.symbol, last: state.last, trades: [...state.trades], bars };
      }),
    };
  }

  /**
   * Serves `state` (another feed's `exportState`) instead of what this one holds, for the instruments both know.
   * Each bar goes back in as four trades at its t (open with its volume, then high, low and close with none), which
   * rebuilds exactly that bar, so later ticks extend it as they would have extended the original.
   */
  importState(state: FeedState): void {
    for (const saved of state.instruments) {
      const target = this.states.get(saved.symbol);
      if (!target) continue;
      const book = new CandleBook();
      for (const tf of TIMEFRAME_LIST) {
        const series = book.series[tf];
        const bars = saved.bars[tf] ?? [];
        let t = 0;
        let c = 0;
        for (let k = 0; k + 5 < bars.length; k += 6) {
          t += bars[k] as number;
          const o = c + (bars[k + 1] as number);
          c = o + (bars[k + 4] as number);
          series.apply(t, o, bars[k + 5] as number);
          series.apply(t, o + (bars[k + 2] as number), 0);
          series.apply(t, o - (bars[k + 3] as number), 0);
          series.apply(t, c, 0);
        }
      }
      target.book = book;
      target.trades = [...saved.trades];
      target.last = saved.last;
    }
  }

  private apply(tick: Tick): void {
    const state = this.states.get(tick.symbol);
    if (!state) return;
    state.book.apply(tick.ts, tick.price, tick.qty);
    state.trades.push(tick);
    if (state.trades.length > RECENT_TRADES * 2) state.trades.splice(0, state.trades.length - RECENT_TRADES);
    state.last = tick;
  }
}

/**
 * The newest `limit` bars of `older` (bars before the feed's first tick) and then `recent` (all of a series' bars, in
 * a fresh copy). A bucket in both (the day, week and month the ticks start in) becomes one bar: the older part's open,
 * the recent part's close, the extremes of both and the sum of their volumes, as if one series had seen every trade.
 */
function joinHistory(older: readonly Bar[], recent: Bar[], limit: number): Bar[] {
  const first = recent[0];
  let end = older.length;
  if (first) {
    while (end > 0 && (older[end - 1] as Bar).t >= first.t) end--;
    const seam = older[end];
    if (seam && seam.t === first.t) {
      recent[0] = {
        t: first.t,
        o: seam.o,
        h: Math.max(seam.h, first.h),
        l: Math.min(seam.l, first.l),
        c: first.c,
        v: seam.v + first.v,
      };
    }
  }
  const room = limit - recent.length;
  if (room <= 0) return recent;
  return [...older.slice(Math.max(0, end - room), end).map((b) => ({ ...b })), ...recent];
}
