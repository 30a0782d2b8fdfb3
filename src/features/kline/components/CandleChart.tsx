import {
  AreaSeries,
  CandlestickSeries,
  ColorType,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type MouseEventParams,
  type PriceFormatCustom,
  type UTCTimestamp,
} from 'lightweight-charts';
import { type ReactElement, useEffect, useRef } from 'react';
import type { Candle } from '../../../../protocol/market';
import type { CandleSeries } from '../../../../streams/candles';
import { localeOf } from '../../../lib/format';
import type { ChartIndicator } from '../../../state/chart-indicators';
import type { Studies } from '../studies/studies';

/**
 * The studies and their math (trading-signals) load with the first indicator turned on, not with the page: a chart
 * without indicators, what a first visit draws, does not wait for them (and the page stays within its size budget).
 */
const loadStudies = () => import('../studies/studies');

type Mode = 'candles' | 'line';

interface Drawn {
  mode: Mode;
  resetVersion: number;
  /** Bucket start of the newest bar drawn. */
  lastT: number;
  count: number;
}

/** Chart coordinates only: drawing needs numbers, the exact strings stay the source of every figure shown. */
const time = (c: Candle) => (c.t / 1000) as UTCTimestamp;
const ohlc = (c: Candle) => ({
  time: time(c),
  open: Number(c.o),
  high: Number(c.h),
  low: Number(c.l),
  close: Number(c.c),
});
const point = (c: Candle) => ({ time: time(c), value: Number(c.c) });

type Plot = { mode: 'line'; api: ISeriesApi<'Area'> } | { mode: 'candles'; api: ISeriesApi<'Candlestick'> };

/** Draws `bars` in full, or only updates them one by one (each at or after the newest drawn bar). */
function draw(plot: Plot, bars: readonly Candle[], full: boolean): void {
  if (plot.mode === 'line') {
    if (full) plot.api.setData(bars.map(point));
    else for (const bar of bars) plot.api.update(point(bar));
  } else if (full) plot.api.setData(bars.map(ohlc));
  else for (const bar of bars) plot.api.update(ohlc(bar));
}

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/** The bucket start under the crosshair, or null when it is off the bars. */
const hoveredT = (param: MouseEventParams): number | null =>
  typeof param.time === 'number' && param.point ? param.time * 1000 : null;

/**
 * Candles (or the time-share line) with lightweight-charts, and the chosen studies: averages and bands over the
 * price, volume, MACD and RSI in panes below. A new series or a changed history redraws all bars; otherwise only bars
 * from the newest drawn one on are updated, which is what a live tick costs. The bar under the crosshair is told to
 * `onHover` (its bucket start, or null when the crosshair leaves the bars).
 */
export function CandleChart({
  series,
  mode,
  theme,
  priceScale,
  label,
  lang,
  indicators,
  onHover,
}: {
  series: CandleSeries | null;
  mode: Mode;
  theme: string;
  priceScale: number;
  label: string;
  lang: string;
  indicators: readonly ChartIndicator[];
  onHover: (t: number | null) => void;
}): ReactElement {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const plot = useRef<Plot | null>(null);
  const drawn = useRef<Drawn | null>(null);
  const studies = useRef<Studies | null>(null);
  const format = useRef<PriceFormatCustom | null>(null);
  // The newest series and hover handler, for the effects that do not run on their every change.
  const latest = useRef({ series, onHover });
  latest.current = { series, onHover };

  // One chart per mount, mode and theme: the colours are CSS variables, read again when the theme changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: theme changes the CSS variables the chart reads
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const precision = Math.min(8, Math.max(0, priceScale));
    // Axis labels in the user's number format (1.234,56 in German), like every other figure on the page.
    const axis = new Intl.NumberFormat(localeOf(lang), {
      minimumFractionDigits: precision,
      maximumFractionDigits: precision,
    });
    const api = createChart(el, {
      autoSize: true,
      // Each series formats its own axis (price, volume, RSI differ): no chart-wide price formatter.
      localization: { locale: localeOf(lang) },
      layout: {
        background: { type: ColorType.Solid, color: cssVar('--surface') },
        textColor: cssVar('--text-2'),
        fontSize: 11,
        attributionLogo: false,
        // Study panes part with the grid's own line; dragging it resizes them.
        panes: { separatorColor: cssVar('--border'), separatorHoverColor: cssVar('--accent-soft'), enableResize: true },
      },
      grid: { vertLines: { color: cssVar('--border') }, horzLines: { color: cssVar('--border') } },
      rightPriceScale: { borderColor: cssVar('--border') },
      timeScale: { borderColor: cssVar('--border'), timeVisible: true, secondsVisible: false },
      handleScale: { axisPressedMouseMove: false },
    });
    const priceFormat: PriceFormatCustom = {
      type: 'custom',
      formatter: (price: number) => axis.format(price),
      minMove: 10 ** -precision,
    };
    format.current = priceFormat;
    plot.current =
      mode === 'line'
        ? {
            mode,
            api: api.addSeries(AreaSeries, {
              lineColor: cssVar('--accent'),
              topColor: cssVar('--accent-soft'),
              bottomColor: 'transparent',
              lineWidth: 2,
              priceFormat,
            }),
          }
        : {
            mode,
            api: api.addSeries(CandlestickSeries, {
              upColor: cssVar('--up'),
              downColor: cssVar('--down'),
              wickUpColor: cssVar('--up'),
              wickDownColor: cssVar('--down'),
              borderVisible: false,
              priceFormat,
            }),
          };
    const hover = (param: MouseEventParams) => latest.current.onHover(hoveredT(param));
    api.subscribeCrosshairMove(hover);
    chart.current = api;
    drawn.current = null;
    return () => {
      api.unsubscribeCrosshairMove(hover);
      api.remove();
      chart.current = null;
      plot.current = null;
      drawn.current = null;
      studies.current = null;
    };
  }, [mode, priceScale, theme, lang]);

  // The studies, added to the chart above and drawn in full; again when the trader picks others.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new chart (mode, scale, theme, language) needs them anew
  useEffect(() => {
    const api = chart.current;
    const el = box.current;
    const priceFormat = format.current;
    if (!api || !el || !priceFormat) return;
    el.setAttribute('data-indicators', indicators.join(' '));
    if (indicators.length === 0) {
      el.setAttribute('data-panes', String(api.panes().length));
      return;
    }
    let added: Studies | null = null;
    let gone = false;
    void loadStudies().then(({ addStudies }) => {
      if (gone || chart.current !== api) return;
      added = addStudies(api, indicators, el, priceFormat, Math.min(8, Math.max(0, priceScale)), localeOf(lang));
      studies.current = added;
      // Bars drawn before the studies came: draw them under the studies too (later bars reach them by the draw below).
      const bars = latest.current.series?.candles;
      if (drawn.current && bars?.length) added.draw(bars, null);
      el.setAttribute('data-panes', String(added.panes));
    });
    return () => {
      gone = true;
      // The chart itself may be gone already (its effect cleans up first); then so are the studies.
      if (added && chart.current === api) added.remove();
      if (studies.current === added) studies.current = null;
    };
  }, [indicators, mode, priceScale, theme, lang]);

  useEffect(() => {
    const target = plot.current;
    if (!target || !series || series.candles.length === 0) return;
    const bars = series.candles;
    const newest = bars[bars.length - 1] as Candle;
    const was = drawn.current;
    if (!was || was.resetVersion !== series.resetVersion || was.mode !== mode) {
      draw(target, bars, true);
      studies.current?.draw(bars, null);
    } else {
      // Bars from the newest drawn one on: the open bar changed and any new ones were added.
      let from = bars.length;
      while (from > 0 && (bars[from - 1] as Candle).t >= was.lastT) from -= 1;
      draw(target, bars.slice(from), false);
      studies.current?.draw(bars, was.lastT);
    }
    drawn.current = { mode, resetVersion: series.resetVersion, lastT: newest.t, count: bars.length };
    box.current?.setAttribute('data-bars', String(bars.length));
    box.current?.setAttribute('data-last', newest.c);
  }, [series, mode]);

  return <div ref={box} className="chart" role="img" aria-label={label} data-testid="chart" data-mode={mode} />;
}
