import { defer, filter, map, merge, type Observable, shareReplay, tap } from 'rxjs';
import { z } from 'zod/mini';
import { compareDecimalText } from '../core/decimal-text';
import { type Candle, candle, type Period } from '../protocol/market';
import { Freshness } from './freshness';
import { pollBesideSocket } from './polling';
import type { TopicSource } from './quotes';

/** Bars kept in memory per series (the chart shows fewer). */
export const MAX_BARS = 1_000;

export interface CandleSeries {
  /** Oldest first, one per bucket start. */
  readonly candles: readonly Candle[];
  /**
   * Changes when bars other than the newest two changed (a snapshot, a poll with history): the chart then
   * redraws everything; otherwise it only updates bars from its last drawn one on.
   */
  readonly resetVersion: number;
  readonly version: number;
}

const candleList = z.array(candle);

/**
 * The fresher of two versions of one bucket. A bucket's volume only grows while it is open, so the one with more
 * volume is the newer; on a tie the one already held stays (nothing new to draw).
 */
function fresher(held: Candle, incoming: Candle): Candle {
  return compareDecimalText(incoming.v, held.v) > 0 ? incoming : held;
}

/**
 * Merges `incoming` bars into `bars` (both oldest first). Returns the new list and whether anything before the
 * held newest bar changed, which needs a full redraw.
 */
export function mergeCandles(
  bars: readonly Candle[],
  incoming: readonly Candle[],
): { bars: Candle[]; changedHistory: boolean; changed: boolean } {
  if (incoming.length === 0) return { bars: [...bars], changedHistory: false, changed: false };
  const lastT = bars[bars.length - 1]?.t ?? Number.NEGATIVE_INFINITY;
  const byT = new Map(bars.map((b) => [b.t, b]));
  let changed = false;
  let changedHistory = false;
  for (const bar of incoming) {
    const held = byT.get(bar.t);
    const next = held ? fresher(held, bar) : bar;
    if (next === held) continue;
    byT.set(bar.t, next);
    changed = true;
    if (bar.t < lastT) changedHistory = true;
  }
  const merged = [...byT.values()].sort((a, b) => a.t - b.t).slice(-MAX_BARS);
  return { bars: merged, changedHistory, changed };
}

export interface CandleStreamOptions {
  source: TopicSource;
  symbol: string;
  period: Period;
  /** The HTTP history call (currency/new_timeshar or usstock/kline); false when it failed. */
  fetch: () => Promise<readonly Candle[] | false>;
  freshness?: Freshness;
}

export interface CandleStream {
  readonly series$: Observable<CandleSeries>;
  readonly freshness: Freshness;
}

/**
 * One instrument's candles at one timeframe: history over HTTP (so the chart draws before the socket is up, and
 * keeps moving by polling while it is down), the socket's snapshot and live updates of the newest bar on top.
 */
export function createCandleStream(options: CandleStreamOptions): CandleStream {
  const freshness = options.freshness ?? new Freshness();
  const series$ = defer(() => {
    let bars: Candle[] = [];
    let version = 0;
    let resetVersion = 0;

    const pushed$ = options.source.topic(`kline:${options.symbol}:${options.period}`).pipe(
      tap(() => freshness.touch()),
      map((message) => {
        const parsed = candleList.safeParse(message.data);
        return parsed.success ? parsed.data : [];
      }),
    );
    const polled$ = pollBesideSocket(options.source.state$, options.fetch);

    return merge(pushed$, polled$).pipe(
      filter((list) => {
        const result = mergeCandles(bars, list);
        bars = result.bars;
        if (result.changedHistory) resetVersion += 1;
        return result.changed || version === 0;
      }),
      map((): CandleSeries => ({ candles: bars, resetVersion, version: ++version })),
    );
  }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
  return { series$, freshness };
}
