import type { Candle, Period, Quote, Timeframe, Trade } from '../../protocol/market';
import { type Bar, CandleBook } from './candles';
import { formatUnits, type Instrument } from './instruments';
import type { PriceSource, Tick, TickListener } from './simulator';
import { formatPercent, stats24h } from './stats';

const RECENT_TRADES = 200;

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
    source.backfill?.((tick) => this.apply(tick));
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

  /** The newest `limit` candles of `period` (the time-share line is the 1-minute series). */
  candles(symbol: string, period: Period, limit: number): Candle[] {
    const state = this.states.get(symbol);
    if (!state) return [];
    const timeframe: Timeframe = period === 'timeshare' ? '1min' : period;
    return state.book.series[timeframe].latest(limit).map((bar) => this.formatBar(state.instrument, bar));
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

  private apply(tick: Tick): void {
    const state = this.states.get(tick.symbol);
    if (!state) return;
    state.book.apply(tick.ts, tick.price, tick.qty);
    state.trades.push(tick);
    if (state.trades.length > RECENT_TRADES * 2) state.trades.splice(0, state.trades.length - RECENT_TRADES);
    state.last = tick;
  }
}
