import type { Timeframe } from '../../../protocol/market';
import type { Bar } from '../candles';
import type { Instrument } from '../instruments';
import type { PriceSource, TickListener } from '../simulator';
import { TickListeners } from './tick-listeners';

/**
 * Two price sources as one, split by instrument: `live` serves the instruments it lists (the exchange's
 * coins), `base` every other one (the US stocks, which no crypto exchange quotes). `base` must keep history
 * (the simulator does).
 *
 * History: the exchange adapter has none (and this machine has no internet to fetch it). Simulated history
 * under real prices would be invented data shown as market data, so only `base`'s own instruments (the US
 * stocks) are backfilled; a live coin's chart and 24-hour figures start with its first real trade, and it has
 * no quote until then. `base`'s ticks for live coins are dropped, never mixed in. Sequence numbers pass through
 * unchanged: a stock's carry on from its simulated history, a live coin's are the live source's own (which
 * continue above the price record's last seq when the server gives it `startSeqs`).
 */
export class CompositePriceSource implements PriceSource {
  private readonly liveSymbols: ReadonlySet<string>;
  private readonly listeners = new TickListeners();

  constructor(
    private readonly base: PriceSource,
    private readonly live: PriceSource,
  ) {
    this.liveSymbols = new Set(live.instruments.map((i) => i.symbol));
    base.subscribe((tick) => {
      if (!this.liveSymbols.has(tick.symbol)) this.listeners.publish(tick);
    });
    live.subscribe((tick) => this.listeners.publish(tick));
  }

  /** `base`'s (coins listed at run time included, they grow), then the live ones `base` does not have. */
  get instruments(): readonly Instrument[] {
    const baseSymbols = new Set(this.base.instruments.map((i) => i.symbol));
    return [...this.base.instruments, ...this.live.instruments.filter((i) => !baseSymbols.has(i.symbol))];
  }

  /** A coin listed at run time is no exchange's: `base` (the simulator) walks it. */
  addInstrument(instrument: Instrument, listedAt: number): void {
    if (this.liveSymbols.has(instrument.symbol)) return;
    this.base.addInstrument?.(instrument, listedAt);
  }

  subscribe(listener: TickListener, symbol?: string): () => void {
    return this.listeners.add(listener, symbol);
  }

  /** `base`'s history of the instruments it still serves (see the class comment). */
  backfill(onTick: TickListener): void {
    this.base.backfill?.((tick) => {
      if (!this.liveSymbols.has(tick.symbol)) onTick(tick);
    });
  }

  /** `base`'s far past of the instruments it still serves: none under a live coin's real prices, as for backfill. */
  history(symbol: string, timeframe: Timeframe): readonly Bar[] {
    if (this.liveSymbols.has(symbol)) return [];
    return this.base.history?.(symbol, timeframe) ?? [];
  }

  start(): void {
    this.base.start();
    this.live.start();
  }

  stop(): void {
    this.live.stop();
    this.base.stop();
  }
}
