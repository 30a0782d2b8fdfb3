import {
  AreaSeries,
  CandlestickSeries,
  ColorType,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { type ReactElement, useEffect, useRef } from 'react';
import type { Candle } from '../../../../protocol/market';
import type { CandleSeries } from '../../../../streams/candles';
import { localeOf } from '../../../lib/format';

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

/**
 * Candles (or the time-share line) with lightweight-charts. A new series or a changed history redraws all bars;
 * otherwise only bars from the newest drawn one on are updated, which is what a live tick costs.
 */
export function CandleChart({
  series,
  mode,
  theme,
  priceScale,
  label,
  lang,
}: {
  series: CandleSeries | null;
  mode: Mode;
  theme: string;
  priceScale: number;
  label: string;
  lang: string;
}): ReactElement {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const plot = useRef<Plot | null>(null);
  const drawn = useRef<Drawn | null>(null);

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
      localization: { locale: localeOf(lang), priceFormatter: (price: number) => axis.format(price) },
      layout: {
        background: { type: ColorType.Solid, color: cssVar('--surface') },
        textColor: cssVar('--text-2'),
        fontSize: 11,
        attributionLogo: false,
      },
      grid: { vertLines: { color: cssVar('--border') }, horzLines: { color: cssVar('--border') } },
      rightPriceScale: { borderColor: cssVar('--border') },
      timeScale: { borderColor: cssVar('--border'), timeVisible: true, secondsVisible: false },
      handleScale: { axisPressedMouseMove: false },
    });
    const priceFormat = { type: 'price' as const, precision, minMove: 10 ** -precision };
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
    chart.current = api;
    drawn.current = null;
    return () => {
      api.remove();
      chart.current = null;
      plot.current = null;
      drawn.current = null;
    };
  }, [mode, priceScale, theme, lang]);

  useEffect(() => {
    const target = plot.current;
    if (!target || !series || series.candles.length === 0) return;
    const bars = series.candles;
    const newest = bars[bars.length - 1] as Candle;
    const was = drawn.current;
    if (!was || was.resetVersion !== series.resetVersion || was.mode !== mode) {
      draw(target, bars, true);
    } else {
      // Bars from the newest drawn one on: the open bar changed and any new ones were added.
      let from = bars.length;
      while (from > 0 && (bars[from - 1] as Candle).t >= was.lastT) from -= 1;
      draw(target, bars.slice(from), false);
    }
    drawn.current = { mode, resetVersion: series.resetVersion, lastT: newest.t, count: bars.length };
    box.current?.setAttribute('data-bars', String(bars.length));
    box.current?.setAttribute('data-last', newest.c);
  }, [series, mode]);

  return <div ref={box} className="chart" role="img" aria-label={label} data-testid="chart" data-mode={mode} />;
}
