import { useSelector } from '@xstate/react';
import type { TFunction } from 'i18next';
import {
  type AutoscaleInfoProvider,
  CandlestickSeries,
  type IPriceLine,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { type ReactElement, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverLive } from '../../../../machines/lever/live';
import type { Candle } from '../../../../protocol/market';
import type { CandleSeries } from '../../../../streams/candles';
import { candleStream } from '../../../../streams/market';
import {
  type ChartLine,
  type ChartTone,
  createPriceChart,
  cssVar,
  plotted,
  priceFormatOf,
  syncPriceLines,
} from '../../../components/chart/price-chart';
import { useStale, useStream } from '../../../hooks/useStream';
import { formatPrice } from '../../../lib/format';
import { type LineKind, type PositionLine, positionLines, rangeInView } from '../position-lines';

/** The chart's timeframe: one-minute candles show the moves a position lives through. */
const PERIOD = '1min';

const bar = (c: Candle) => ({
  time: (c.t / 1000) as UTCTimestamp,
  open: plotted(c.o),
  high: plotted(c.h),
  low: plotted(c.l),
  close: plotted(c.c),
});

const TONE: Record<LineKind, ChartTone> = {
  entry: 'accent',
  liquidation: 'warn',
  take_profit: 'up',
  stop_loss: 'down',
};

interface Drawn {
  series: ISeriesApi<'Candlestick'>;
  lines: Map<string, IPriceLine>;
  /** Bucket start of the newest bar drawn and the history version it was drawn from. */
  lastT: number;
  resetVersion: number;
}

/**
 * The contracts page's chart of the selected instrument (loaded lazily with the chart library): one-minute candles
 * (history, then live), and the user's open positions of that instrument as labelled lines: entry, liquidation price,
 * take-profit and stop-loss. The positions come from the book's live controller (its open list, and the worker's
 * live liquidation prices), never fetched again: a saved stop or added margin moves its line as it moves the row.
 * Lines near the candles are kept in view (rangeInView); every line is listed as text (exact prices) for screen
 * readers and tests.
 */
export default function PositionChart({
  symbol,
  priceScale,
  live,
}: {
  symbol: string;
  priceScale: number;
  live: LeverLive;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const box = useRef<HTMLDivElement>(null);
  const drawn = useRef<Drawn | null>(null);
  const candles = useMemo(() => candleStream('coin', symbol, PERIOD), [symbol]);
  const series = useStream<CandleSeries | null>(candles.series$, null);
  const stale = useStale(candles.freshness);
  const positions = useSelector(live.actor, (s) => s.context.lists?.positions ?? null);
  const liquidation = useLiveLiquidation(live, positions, symbol);
  const lines = useMemo(
    () => positionLines(positions, symbol, (p) => liquidation.get(p.id)),
    [positions, symbol, liquidation],
  );
  const several = new Set(lines.map((l) => l.position)).size > 1;
  // Titles follow the set of lines, not their prices: a cross position's liquidation price moves with every mark of
  // the account, and translating every title again at each frame was most of this chart's cost under load.
  const which = lines.map((l) => `${l.key} ${l.side} ${l.leverage}`).join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `which` is what the titles read of the lines
  const titles = useMemo(() => new Map(lines.map((l) => [l.key, lineTitle(l, several, t)])), [which, several, t]);
  const wanted = useMemo(
    (): ChartLine[] =>
      lines.map((l) => ({
        key: l.key,
        price: l.price,
        title: titles.get(l.key) ?? '',
        tone: TONE[l.kind],
        dashed: l.kind !== 'entry',
      })),
    [lines, titles],
  );
  // The lines' prices for the autoscale, which keeps the near ones in view (rangeInView).
  const linePrices = useRef<number[]>([]);
  linePrices.current = lines.map((l) => plotted(l.price));
  const latest = useRef({ series, wanted });
  latest.current = { series, wanted };

  // One chart per instrument, scale and language; the theme is followed by the chart itself.
  // biome-ignore lint/correctness/useExhaustiveDependencies: symbol starts a new chart; the newest data is read through refs
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const colours = () => ({
      upColor: cssVar('--up'),
      downColor: cssVar('--down'),
      wickUpColor: cssVar('--up'),
      wickDownColor: cssVar('--down'),
    });
    const chart = createPriceChart(el, {
      lang,
      priceScale,
      onTheme: () => {
        candlesApi.applyOptions(colours());
        const d = drawn.current;
        if (d) syncPriceLines(d.series, d.lines, latest.current.wanted);
      },
    });
    const candlesApi = chart.api.addSeries(CandlestickSeries, {
      ...colours(),
      borderVisible: false,
      priceFormat: priceFormatOf(priceScale),
      autoscaleInfoProvider: ((base) => {
        const info = base();
        if (!info?.priceRange) return info;
        const { low, high } = rangeInView(info.priceRange.minValue, info.priceRange.maxValue, linePrices.current);
        return { ...info, priceRange: { minValue: low, maxValue: high } };
      }) satisfies AutoscaleInfoProvider,
    });
    drawn.current = { series: candlesApi, lines: new Map(), lastT: Number.NEGATIVE_INFINITY, resetVersion: -1 };
    drawBars();
    syncPriceLines(candlesApi, drawn.current.lines, latest.current.wanted);
    return () => {
      chart.remove();
      drawn.current = null;
    };
  }, [symbol, priceScale, lang]);

  /** All bars when the history changed, else only those from the newest drawn one on (what a live tick costs). */
  const drawBars = () => {
    const d = drawn.current;
    const held = latest.current.series;
    if (!d || !held || held.candles.length === 0) return;
    const bars = held.candles;
    if (d.resetVersion !== held.resetVersion) d.series.setData(bars.map(bar));
    else for (const c of bars) if (c.t >= d.lastT) d.series.update(bar(c));
    d.resetVersion = held.resetVersion;
    d.lastT = (bars[bars.length - 1] as Candle).t;
    box.current?.setAttribute('data-bars', String(bars.length));
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: drawBars reads the newest series through a ref
  useEffect(() => {
    drawBars();
  }, [series]);

  useEffect(() => {
    const d = drawn.current;
    if (d) syncPriceLines(d.series, d.lines, wanted);
  }, [wanted]);

  return (
    <>
      <div className={stale && series ? 'trade-chart is-stale' : 'trade-chart'} aria-busy={series === null}>
        <div
          ref={box}
          className="trade-chart-canvas"
          role="img"
          aria-label={t('lever.chart.label', { symbol })}
          data-testid="position-chart"
        />
        {series === null ? <span className="spinner trade-chart-spinner" aria-hidden="true" /> : null}
      </div>
      <ul className="visually-hidden" data-testid="position-lines" aria-label={t('lever.chart.caption')}>
        {lines.map((l) => (
          <li key={l.key} data-position={l.position} data-kind={l.kind} data-price={l.price}>
            {titles.get(l.key)} · {formatPrice(l.price, lang, priceScale)}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The words the rows and the ticket already use for each line. */
const KIND_KEY = {
  entry: 'lever.row.entry',
  liquidation: 'lever.row.liquidation',
  take_profit: 'lever.ticket.takeProfit',
  stop_loss: 'lever.ticket.stopLoss',
} as const satisfies Record<LineKind, string>;

/** "Entry price", or "Entry price · Long 10x" when several positions share the chart. */
function lineTitle(l: PositionLine, several: boolean, t: TFunction): string {
  const kind = t(KIND_KEY[l.kind]);
  return several ? t('lever.chart.lineOf', { kind, side: t(`lever.ticket.${l.side}`), leverage: l.leverage }) : kind;
}

/** How often at most the chart's liquidation lines move (a quarter of a second: the rows carry every frame's). */
const LIQUIDATION_LINE_MS = 250;

/**
 * The positions worker's live liquidation price of each open position of `symbol` (it moves with added margin, and
 * for a cross position with the account), taken from the book's figure board as it publishes, at most every
 * LIQUIDATION_LINE_MS; the chart renders only when one of them changed.
 */
function useLiveLiquidation(
  live: LeverLive,
  positions: readonly { id: number; symbol: string }[] | null,
  symbol: string,
): ReadonlyMap<number, string | null> {
  const ids = useMemo(() => (positions ?? []).filter((p) => p.symbol === symbol).map((p) => p.id), [positions, symbol]);
  const read = () => new Map(ids.map((id) => [id, live.figures.get(id)?.liquidationPrice ?? null]));
  const [held, setHeld] = useState<ReadonlyMap<number, string | null>>(read);
  // biome-ignore lint/correctness/useExhaustiveDependencies: read closes over ids and the board, both dependencies
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = Number.NEGATIVE_INFINITY;
    const apply = () => {
      timer = undefined;
      last = performance.now();
      setHeld((was) => {
        const next = read();
        const same = was.size === next.size && [...next].every(([id, lp]) => was.get(id) === lp);
        return same ? was : next;
      });
    };
    // At most one move per LIQUIDATION_LINE_MS, the newest price last: a cross position's liquidation price moves
    // with every mark of the account, and each move redraws the whole chart (the rows show it at every frame).
    const update = () => {
      if (timer !== undefined) return;
      timer = setTimeout(apply, Math.max(0, last + LIQUIDATION_LINE_MS - performance.now()));
    };
    apply();
    const stops = ids.map((id) => live.figures.subscribe(id, update));
    return () => {
      clearTimeout(timer);
      for (const stop of stops) stop();
    };
  }, [ids, live.figures]);
  return held;
}
