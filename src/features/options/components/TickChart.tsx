import { useQuery } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import type { TFunction } from 'i18next';
import { AreaSeries, type IPriceLine, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import { type ReactElement, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchRecordedTicks } from '../../../../core/api/price-record';
import type { OptionLive } from '../../../../machines/options/live';
import {
  type ChartLine,
  createPriceChart,
  cssVar,
  type PriceChart,
  priceFormatOf,
  syncPriceLines,
} from '../../../components/chart/price-chart';
import { need } from '../../../data/query';
import { useQuote } from '../../../hooks/useQuote';
import { useServerNow } from '../../../hooks/useServerNow';
import { formatPrice, localeOf } from '../../../lib/format';
import { optionKeys } from '../keys';
import { type EntryLine, entryLines, extendsLine, mergeTicks, type TickPoint } from '../tick-line';

interface Drawn {
  chart: PriceChart;
  series: ISeriesApi<'Area'>;
  lines: Map<string, IPriceLine>;
}

/** A point of the chart: placed by its sequence number, so each tick is one equal step (a tick chart). */
const point = (p: TickPoint) => ({ time: p.seq as UTCTimestamp, value: Number(p.price) });

/**
 * The option page's live tick chart (loaded lazily with the chart library): it opens with the instrument's recent
 * recorded ticks (market/chain/ticks), not empty, and adds each live price after them. Every running contract of
 * this book on the instrument is a line at its entry price, titled with its direction and the seconds it has left on
 * server time. The lines are listed beside the chart as text (exact prices) for screen readers and tests.
 */
export default function TickChart({
  symbol,
  priceScale,
  live,
  stale,
}: {
  symbol: string;
  priceScale: number;
  live: OptionLive;
  stale: boolean;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const box = useRef<HTMLDivElement>(null);
  const drawn = useRef<Drawn | null>(null);
  const points = useRef<TickPoint[]>([]);
  const history = useQuery({
    queryKey: [...optionKeys.all, 'recorded-ticks', symbol],
    queryFn: () => need(fetchRecordedTicks(symbol)),
    // Quiet background reads: a dropped answer is worth another try before the chart goes on with live prices only.
    retry: 2,
  });
  const { quote } = useQuote(symbol);
  const open = useSelector(live.actor, (s) => s.context.open);
  const now = useServerNow(true, 1_000);
  const entries = useMemo(() => entryLines(open, symbol, now), [open, symbol, now]);
  const lines = useMemo(
    (): ChartLine[] =>
      entries.map((e) => ({
        key: String(e.id),
        price: e.price,
        title: entryTitle(e, t),
        tone: e.direction === 'up' ? 'up' : 'down',
        dashed: true,
      })),
    [entries, t],
  );
  const latest = useRef({ history: history.data, quote, lines });
  latest.current = { history: history.data, quote, lines };

  /** Writes what the chart shows into its box's attributes (the count proves it opened with history). */
  const mark = () => {
    const el = box.current;
    const held = points.current;
    if (!el) return;
    el.dataset.points = String(held.length);
    el.dataset.firstSeq = String(held[0]?.seq ?? '');
    el.dataset.lastSeq = String(held[held.length - 1]?.seq ?? '');
    el.dataset.recorded = String(latest.current.history?.ticks.length ?? 0);
  };

  /** Everything held merged again and drawn whole: the history arrived, or the chart is new. */
  const redraw = () => {
    const d = drawn.current;
    const { history: recorded, quote: q } = latest.current;
    const incoming: TickPoint[] = [...(recorded?.ticks ?? [])];
    if (q) incoming.push({ seq: q.seq, ts: q.ts, price: q.last });
    points.current = mergeTicks(points.current, incoming);
    d?.series.setData(points.current.map(point));
    mark();
  };

  // One chart per instrument, scale and language; the theme is followed by the chart itself. The newest data is read
  // through refs: a new chart draws what is held.
  // biome-ignore lint/correctness/useExhaustiveDependencies: symbol starts a new line; redraw reads through refs
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const time = new Intl.DateTimeFormat(localeOf(lang), { timeStyle: 'medium' });
    const chart = createPriceChart(el, {
      lang,
      priceScale,
      // Two pixels a tick: a couple of minutes of the record in view at one tick a second.
      barSpacing: 2,
      // A point's time is its tick's: the points are found by sequence number.
      timeLabel: (seq) => {
        const p = points.current.find((x) => x.seq === seq);
        return p ? time.format(p.ts) : '';
      },
      onTheme: () => series.applyOptions(colours()),
    });
    const colours = () => ({
      lineColor: cssVar('--accent'),
      topColor: cssVar('--accent-soft'),
      bottomColor: 'transparent',
    });
    const series = chart.api.addSeries(AreaSeries, {
      ...colours(),
      lineWidth: 2,
      priceFormat: priceFormatOf(priceScale),
      lastValueVisible: true,
      priceLineVisible: false,
    });
    drawn.current = { chart, series, lines: new Map() };
    points.current = [];
    redraw();
    syncPriceLines(series, drawn.current.lines, latest.current.lines);
    return () => {
      chart.remove();
      drawn.current = null;
    };
  }, [symbol, priceScale, lang]);

  // The recorded ticks arrived (or came again): merged under the live ones, drawn whole.
  // biome-ignore lint/correctness/useExhaustiveDependencies: redraw reads the newest data through refs
  useEffect(() => {
    if (history.data?.symbol === symbol) redraw();
  }, [history.data, symbol]);

  // A live price: after the newest point it is only added; an older or repeated one is known already.
  // biome-ignore lint/correctness/useExhaustiveDependencies: mark reads through refs
  useEffect(() => {
    const d = drawn.current;
    if (!d || !quote || quote.symbol !== symbol) return;
    const tick = { seq: quote.seq, ts: quote.ts, price: quote.last };
    if (!extendsLine(points.current, tick)) return;
    const grown = mergeTicks(points.current, [tick]);
    // At the cap the oldest point went: the chart is drawn whole again, otherwise the point is only added.
    if (grown[0] !== points.current[0]) d.series.setData(grown.map(point));
    else d.series.update(point(tick));
    points.current = grown;
    mark();
  }, [quote, symbol]);

  useEffect(() => {
    const d = drawn.current;
    if (d) syncPriceLines(d.series, d.lines, lines);
  }, [lines]);

  const loading = history.isPending;
  return (
    <>
      <div className={stale ? 'trade-chart is-stale' : 'trade-chart'} aria-busy={loading}>
        <div
          ref={box}
          className="trade-chart-canvas"
          role="img"
          aria-label={t('options.chart.label', { symbol })}
          data-testid="tick-chart"
        />
        {loading ? <span className="spinner trade-chart-spinner" aria-hidden="true" /> : null}
        {!loading && points.current.length < 2 ? (
          <p className="trade-chart-note">{t('options.chart.collecting')}</p>
        ) : null}
      </div>
      <ul className="visually-hidden" data-testid="chart-lines" aria-label={t('options.chart.lines')}>
        {entries.map((e) => (
          <li key={e.id} data-kind="entry" data-contract={e.id} data-price={e.price} data-left={e.left}>
            {entryTitle(e, t)} · {formatPrice(e.price, lang, priceScale)}
          </li>
        ))}
      </ul>
    </>
  );
}

/** "Up · 23 s": the direction it bets and the time it has left, short enough for the line's label. */
function entryTitle(e: EntryLine, t: TFunction): string {
  return t('options.chart.entryLine', {
    direction: t(`options.${e.direction}`),
    left: t('options.seconds', { n: e.left }),
  });
}
