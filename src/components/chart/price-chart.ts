import {
  ColorType,
  type CreatePriceLineOptions,
  createChart,
  type IChartApi,
  LineStyle,
  type PriceLineOptions,
  type Time,
} from 'lightweight-charts';
import { localeOf } from '../../lib/format';

/**
 * What the product charts share (the option tick charts, the contracts chart): a lightweight-charts chart in the
 * theme's colours and the user's number format, kept in step with the theme, and labelled price lines kept in step
 * with a list. Every price arrives as exact decimal text and becomes a number here only to place pixels; a figure
 * shown as text stays the exact string (the lines' list beside each chart). This module loads with the charts'
 * own lazy chunks, never with a route.
 */

/** The theme's colour tokens a chart uses (src/app/theme.css). */
export type ChartTone = 'up' | 'down' | 'warn' | 'accent' | 'muted';

const TONE_VAR: Record<ChartTone, string> = {
  up: '--up',
  down: '--down',
  warn: '--warn',
  accent: '--accent',
  muted: '--text-2',
};

export function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

export const toneColor = (tone: ChartTone): string => cssVar(TONE_VAR[tone]);

/** A price for drawing only: the exact text stays the figure every label shows. */
export const plotted = (price: string): number => Number(price);

/** Decimals of the axis and the crosshair's price: the instrument's own tick. */
export function priceFormatOf(priceScale: number): { type: 'price'; precision: number; minMove: number } {
  const precision = Math.min(8, Math.max(0, priceScale));
  return { type: 'price', precision, minMove: 10 ** -precision };
}

function themeOptions() {
  return {
    layout: {
      background: { type: ColorType.Solid, color: cssVar('--surface') },
      textColor: cssVar('--text-2'),
    },
    grid: { vertLines: { color: cssVar('--border') }, horzLines: { color: cssVar('--border') } },
    rightPriceScale: { borderColor: cssVar('--border') },
    timeScale: { borderColor: cssVar('--border') },
  };
}

export interface PriceChartOptions {
  lang: string;
  priceScale: number;
  /**
   * The label of a point of the horizontal scale, for charts whose points are not times (a tick chart places each
   * recorded tick by its sequence number and names it by its time); the chart's own time labels otherwise.
   */
  timeLabel?: (time: number) => string;
  /** Told when the theme changed, after the chart took its new colours: the caller recolours its series. */
  onTheme?: () => void;
  /** Pixels per point (lightweight-charts' 6 by default): a tick chart shows more of its history at 2. */
  barSpacing?: number;
}

export interface PriceChart {
  api: IChartApi;
  remove(): void;
}

/**
 * A chart in `el` (which sizes it) with the theme's colours and the user's number format on the price axis. It
 * follows the theme (data-theme on the root element) until removed.
 */
/** Axis labels a chart keeps formatted (its ticks and lines repeat; a new range starts the set again). */
const LABELS_KEPT = 512;

export function createPriceChart(el: HTMLElement, options: PriceChartOptions): PriceChart {
  const { precision } = priceFormatOf(options.priceScale);
  const locale = localeOf(options.lang);
  // Axis labels in the user's number format (1.234,56 in German), like every other figure on the page.
  const axis = new Intl.NumberFormat(locale, { minimumFractionDigits: precision, maximumFractionDigits: precision });
  const labels = new Map<number, string>();
  const label = options.timeLabel;
  const base = themeOptions();
  const api = createChart(el, {
    autoSize: true,
    localization: {
      locale,
      priceFormatter: (price: number) => {
        // The chart asks again for the same few axis and line labels at every redraw: formatting each once keeps
        // Intl off the frame (a lever chart under load spent more time here than drawing).
        let text = labels.get(price);
        if (text === undefined) {
          if (labels.size >= LABELS_KEPT) labels.clear();
          text = axis.format(price);
          labels.set(price, text);
        }
        return text;
      },
      ...(label ? { timeFormatter: (time: Time) => label(Number(time)) } : {}),
    },
    layout: { ...base.layout, fontSize: 11, attributionLogo: false },
    grid: base.grid,
    rightPriceScale: base.rightPriceScale,
    timeScale: {
      ...base.timeScale,
      timeVisible: true,
      secondsVisible: label !== undefined,
      ...(options.barSpacing ? { barSpacing: options.barSpacing } : {}),
      ...(label ? { tickMarkFormatter: (time: Time) => label(Number(time)) } : {}),
    },
    handleScale: { axisPressedMouseMove: false },
  });
  const theme = new MutationObserver(() => {
    api.applyOptions(themeOptions());
    options.onTheme?.();
  });
  theme.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return {
    api,
    remove() {
      theme.disconnect();
      api.remove();
    },
  };
}

/** One labelled horizontal line: an entry, a liquidation price, a take-profit or stop-loss, an exit. */
export interface ChartLine {
  /** Stable across updates: the same key moves its line rather than drawing a new one. */
  key: string;
  /** Exact decimal text. */
  price: string;
  /** Drawn on the line and named in the lines' list. */
  title: string;
  tone: ChartTone;
  dashed?: boolean;
}

/** What of a series the lines need (a lightweight-charts series; a test's recorder). */
export interface LineHost<L extends { applyOptions(options: Partial<PriceLineOptions>): void }> {
  createPriceLine(options: CreatePriceLineOptions): L;
  removePriceLine(line: L): void;
}

/** What each chart's lines were last told (by the chart's map of lines), so an unchanged line is left alone. */
const appliedLines = new WeakMap<Map<string, unknown>, Map<string, string>>();

/**
 * Keeps `held` (the lines drawn on `series`, by key) in step with `wanted`: new keys are drawn, gone ones removed,
 * and a kept line takes its new price, title and colour (a line with none of them changed is not touched). Returns the keys now drawn.
 */
export function syncPriceLines<L extends { applyOptions(options: Partial<PriceLineOptions>): void }>(
  series: LineHost<L>,
  held: Map<string, L>,
  wanted: readonly ChartLine[],
): string[] {
  const keys = new Set(wanted.map((l) => l.key));
  let applied = appliedLines.get(held);
  if (!applied) {
    applied = new Map();
    appliedLines.set(held, applied);
  }
  for (const [key, line] of held) {
    if (keys.has(key)) continue;
    series.removePriceLine(line);
    held.delete(key);
    applied.delete(key);
  }
  // One style read per tone, not per line (reading a CSS variable may recompute the page's styles).
  const colours = new Map<ChartTone, string>();
  for (const l of wanted) {
    const color = colours.get(l.tone) ?? toneColor(l.tone);
    colours.set(l.tone, color);
    const options = {
      price: plotted(l.price),
      title: l.title,
      color,
      lineWidth: 1 as const,
      lineStyle: l.dashed ? LineStyle.Dashed : LineStyle.Solid,
      axisLabelVisible: true,
    };
    // A line is told only what changed about it: each change redraws the chart.
    const told = `${options.price}\n${options.title}\n${color}\n${options.lineStyle}`;
    const line = held.get(l.key);
    if (line && applied.get(l.key) === told) continue;
    if (line) line.applyOptions(options);
    else held.set(l.key, series.createPriceLine(options));
    applied.set(l.key, told);
  }
  return [...held.keys()];
}
