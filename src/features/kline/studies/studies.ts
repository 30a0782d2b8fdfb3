import {
  type CandlestickData,
  CandlestickSeries,
  type IChartApi,
  type ISeriesApi,
  type LineData,
  LineSeries,
  LineStyle,
  type PriceFormatCustom,
  type SeriesType,
  type UTCTimestamp,
} from 'lightweight-charts';
import { compareDecimalText } from '../../../../core/decimal-text';
import type { Candle } from '../../../../protocol/market';
import type { ChartIndicator } from '../../../state/chart-indicators';
import { bollingerBands, exponentialAverage, type Line, macd, movingAverage, relativeStrength } from './indicators';
import { STUDY } from './study-periods';

/** One series and how it is drawn from the bars: in full, or from bar `start` on (a live update). */
interface Track {
  series: ISeriesApi<SeriesType>;
  draw(bars: readonly Candle[], closes: readonly number[], start: number | null): void;
}

export interface Studies {
  /** Panes in the chart, the price pane included. */
  readonly panes: number;
  /** Draws every bar, or (`from` given) updates the bars from that bucket start on, as the price series does. */
  draw(bars: readonly Candle[], from: number | null): void;
  remove(): void;
}

/** Chart coordinates only (see CandleChart): numbers for drawing; no figure shown as text comes from here. */
const time = (c: Candle) => (c.t / 1000) as UTCTimestamp;

/** A series and its points, one per bar (null where the study has none yet). */
function track<P>(
  series: ISeriesApi<SeriesType> & { setData(data: P[]): void; update(point: P): void },
  points: (bars: readonly Candle[], closes: readonly number[]) => (P | null)[],
): Track {
  return {
    series,
    draw(bars, closes, start) {
      const all = points(bars, closes);
      if (start === null) series.setData(all.filter((p): p is P => p !== null));
      else
        for (const p of all.slice(start)) {
          if (p) series.update(p);
        }
    },
  };
}

const linePoints = (bars: readonly Candle[], line: Line): (LineData | null)[] =>
  line.map((value, i) => (value === null ? null : { time: time(bars[i] as Candle), value }));

/**
 * A bar from zero to `value` in `color`: drawn as a candle (open 0, close at the value) rather than with the
 * histogram series, which would add half a kilobyte to the chart page for the same picture.
 */
const barPoint = (bar: Candle, value: number, color: string): CandlestickData => ({
  time: time(bar),
  open: 0,
  close: value,
  high: Math.max(0, value),
  low: Math.min(0, value),
  color,
});

/** Axis labels of a study pane in the user's number format, with `digits` decimals. */
function numberFormat(locale: string, digits: number, compact = false): PriceFormatCustom {
  const nf = new Intl.NumberFormat(locale, {
    maximumFractionDigits: digits,
    minimumFractionDigits: compact ? 0 : digits,
    ...(compact ? { notation: 'compact' as const } : {}),
  });
  return { type: 'custom', formatter: (n: number) => nf.format(n), minMove: 10 ** -digits };
}

/** The studies' colours, set on the chart's element (kline.css) so they follow the theme. */
const colour = (el: Element, name: string) => getComputedStyle(el).getPropertyValue(`--study-${name}`).trim();

/**
 * Adds the chosen studies to a chart whose price series is on pane 0: the averages and bands over the price, and
 * volume, MACD and RSI each in a pane of its own below it, in that order. The price pane keeps most of the height.
 */
export function addStudies(
  api: IChartApi,
  on: readonly ChartIndicator[],
  el: Element,
  priceFormat: PriceFormatCustom,
  precision: number,
  locale: string,
): Studies {
  const tracks: Track[] = [];
  const [a, b, c, d, bands, guide, up, down] = ['1', '2', '3', '4', 'bands', 'guide', 'up', 'down'].map((name) =>
    colour(el, name),
  ) as [string, string, string, string, string, string, string, string];
  const quiet = { lastValueVisible: false, priceLineVisible: false, crosshairMarkerVisible: false } as const;
  const line = (pane: number, color: string, title: string, format: PriceFormatCustom) =>
    api.addSeries(LineSeries, { ...quiet, color, lineWidth: 1, title, priceFormat: format }, pane);
  const bars = (pane: number, title: string, format: PriceFormatCustom) =>
    api.addSeries(
      CandlestickSeries,
      { ...quiet, title, priceFormat: format, wickVisible: false, borderVisible: false },
      pane,
    );
  /** One pass of a study over the closes, shared by the series that draw its parts. */
  const once = <R>(study: (closes: readonly number[]) => R) => {
    let memo: { closes: readonly number[]; result: R } | null = null;
    return (closes: readonly number[]) => {
      if (memo?.closes !== closes) memo = { closes, result: study(closes) };
      return memo.result;
    };
  };
  let pane = 0;

  for (const [study, periods, colours, average] of [
    ['ma', STUDY.ma, [a, b], movingAverage],
    ['ema', STUDY.ema, [c, d], exponentialAverage],
  ] as const) {
    if (!on.includes(study)) continue;
    for (const [i, period] of periods.entries()) {
      const series = line(0, colours[i] ?? a, `${study.toUpperCase()}${period}`, priceFormat);
      tracks.push(track(series, (all, closes) => linePoints(all, average(closes, period))));
    }
  }
  if (on.includes('boll')) {
    const { period, deviations } = STUDY.boll;
    const bandsOf = once((closes) => bollingerBands(closes, period, deviations));
    for (const band of ['upper', 'middle', 'lower'] as const) {
      const series = line(0, bands, band === 'middle' ? `BOLL${period}` : '', priceFormat);
      if (band !== 'middle') series.applyOptions({ lineStyle: LineStyle.Dashed });
      tracks.push(
        track(series, (all, closes) =>
          linePoints(
            all,
            bandsOf(closes).map((v) => v?.[band] ?? null),
          ),
        ),
      );
    }
  }
  if (on.includes('vol')) {
    pane += 1;
    const series = bars(pane, 'VOL', numberFormat(locale, 2, true));
    tracks.push(
      track(series, (all) =>
        all.map((bar) => barPoint(bar, Number(bar.v), compareDecimalText(bar.c, bar.o) < 0 ? down : up)),
      ),
    );
  }
  if (on.includes('macd')) {
    pane += 1;
    const { fast, slow, signal } = STUDY.macd;
    const format = numberFormat(locale, Math.min(8, precision + 2));
    const macdOf = once((closes) => macd(closes, fast, slow, signal));
    const histogram = bars(pane, `MACD ${fast},${slow},${signal}`, format);
    tracks.push(
      track(histogram, (all, closes) =>
        macdOf(closes).map((v, i) =>
          v === null ? null : barPoint(all[i] as Candle, v.histogram, v.histogram < 0 ? down : up),
        ),
      ),
    );
    for (const [key, color] of [
      ['macd', a],
      ['signal', d],
    ] as const) {
      const series = line(pane, color, '', format);
      tracks.push(
        track(series, (all, closes) =>
          linePoints(
            all,
            macdOf(closes).map((v) => v?.[key] ?? null),
          ),
        ),
      );
    }
  }
  if (on.includes('rsi')) {
    pane += 1;
    const series = line(pane, c, `RSI${STUDY.rsi}`, numberFormat(locale, 2));
    series.applyOptions({
      lastValueVisible: true,
      // RSI lives between 0 and 100: a fixed scale keeps the 30 and 70 guides where a trader looks for them.
      autoscaleInfoProvider: () => ({ priceRange: { minValue: 0, maxValue: 100 } }),
    });
    series.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.08 } });
    for (const level of [70, 30]) {
      series.createPriceLine({ price: level, color: guide, lineStyle: LineStyle.Dotted, axisLabelVisible: false });
    }
    tracks.push(track(series, (all, closes) => linePoints(all, relativeStrength(closes, STUDY.rsi))));
  }

  // Price pane three parts to each study pane's one: the candles stay the chart a trader reads first.
  const panes = api.panes();
  panes[0]?.setStretchFactor(3);

  return {
    panes: panes.length,
    draw(all, from) {
      if (tracks.length === 0) return;
      const closes = all.map((bar) => Number(bar.c));
      // The updated bars are at the end: the first one at or after `from`.
      let start: number | null = null;
      if (from !== null) {
        start = all.length;
        while (start > 0 && (all[start - 1] as Candle).t >= from) start -= 1;
      }
      for (const t of tracks) t.draw(all, closes, start);
    },
    remove() {
      // A pane left without series goes with them.
      for (const t of tracks) api.removeSeries(t.series);
      tracks.length = 0;
    },
  };
}
