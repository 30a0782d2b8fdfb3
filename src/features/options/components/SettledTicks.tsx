import { useQuery } from '@tanstack/react-query';
import { AreaSeries, type IPriceLine, type UTCTimestamp } from 'lightweight-charts';
import { type ReactElement, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchRecordedTicks } from '../../../../core/api/price-record';
import type { OptionContract } from '../../../../protocol/options';
import {
  type ChartLine,
  type ChartTone,
  createPriceChart,
  cssVar,
  priceFormatOf,
  syncPriceLines,
  toneColor,
} from '../../../components/chart/price-chart';
import { need } from '../../../data/query';
import { localeOf } from '../../../lib/format';
import { formatTickPrice } from '../format';
import { optionKeys } from '../keys';
import { markedTicks, type TickPoint } from '../tick-line';

/**
 * Room left and right of the stretch drawn, in points: a little on the left, and on the right enough that the exit's
 * dot is not hidden under the price lines' titles, which sit at the right edge.
 */
const roomOf = (points: number) => ({
  left: Math.max(2, Math.ceil(points * 0.03)),
  right: Math.max(8, Math.ceil(points * 0.35)),
});

const point = (p: TickPoint) => ({ time: p.seq as UTCTimestamp, value: Number(p.price) });
const lineColours = () => ({
  lineColor: cssVar('--accent'),
  topColor: cssVar('--accent-soft'),
  bottomColor: 'transparent',
});

/**
 * A settled contract's re-check made visible (loaded lazily with the chart library): the recorded ticks from its
 * entry tick to its exit tick (market/chain/ticks), both marked as dots on the line and drawn as titled price
 * lines, and named below with their exact prices, numbers and times as the record holds them. Where the record's tick is not the one
 * the contract names, it says so (the re-check below tells the rest).
 */
export default function SettledTicks({
  contract,
  priceScale,
}: {
  contract: OptionContract & { entry: NonNullable<OptionContract['entry']>; exit: NonNullable<OptionContract['exit']> };
  priceScale: number;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const box = useRef<HTMLDivElement>(null);
  const { entry, exit } = contract;
  const recorded = useQuery({
    queryKey: [...optionKeys.contract(contract.id), 'recorded-ticks'],
    queryFn: () => need(fetchRecordedTicks(contract.symbol, { from: entry.seq, to: exit.seq })),
    // A settled contract's ticks never change.
    staleTime: Number.POSITIVE_INFINITY,
    retry: 2,
  });
  const ticks = recorded.data?.ticks ?? null;
  const marked = ticks ? markedTicks(ticks, contract) : null;
  const exitTone: ChartTone = contract.state === 'won' ? 'up' : contract.state === 'lost' ? 'down' : 'muted';

  useEffect(() => {
    const el = box.current;
    if (!el || !ticks || ticks.length === 0) return;
    const time = new Intl.DateTimeFormat(localeOf(lang), { timeStyle: 'medium' });
    const bySeq = new Map(ticks.map((p) => [p.seq, p.ts]));
    const chart = createPriceChart(el, {
      lang,
      priceScale,
      timeLabel: (seq) => {
        const ts = bySeq.get(seq);
        return ts === undefined ? '' : time.format(ts);
      },
      onTheme: () => {
        series.applyOptions(lineColours());
        draw();
      },
    });
    const series = chart.api.addSeries(AreaSeries, {
      ...lineColours(),
      lineWidth: 2,
      priceFormat: priceFormatOf(priceScale),
      lastValueVisible: false,
      priceLineVisible: false,
    });
    series.setData(ticks.map(point));
    // The entry and exit ticks as dots on the line: a series of their two points alone, without a line. (The markers
    // plugin would mark them too, but it would grow the chart library's chunk that the kline page loads.)
    const marks = chart.api.addSeries(AreaSeries, {
      lineVisible: false,
      pointMarkersVisible: true,
      pointMarkersRadius: 5,
      topColor: 'transparent',
      bottomColor: 'transparent',
      crosshairMarkerVisible: false,
      lastValueVisible: false,
      priceLineVisible: false,
      priceFormat: priceFormatOf(priceScale),
    });
    const lines = new Map<string, IPriceLine>();
    const draw = () => {
      const wanted: ChartLine[] = [
        { key: 'entry', price: entry.price, title: t('options.ticks.entry'), tone: 'accent', dashed: true },
        { key: 'exit', price: exit.price, title: t('options.ticks.exit'), tone: exitTone, dashed: true },
      ];
      syncPriceLines(series, lines, wanted);
      marks.setData([
        { ...point(entry), lineColor: toneColor('accent') },
        { ...point(exit), lineColor: toneColor(exitTone) },
      ]);
    };
    draw();
    // The whole stretch, with a few points' room either side so that neither dot sits on the chart's edge.
    const room = roomOf(ticks.length);
    chart.api.timeScale().setVisibleLogicalRange({ from: -room.left, to: ticks.length - 1 + room.right });
    return () => chart.remove();
  }, [ticks, lang, priceScale, entry, exit, exitTone, t]);

  const clock = new Intl.DateTimeFormat(localeOf(lang), { timeStyle: 'medium' });
  const legend = (key: 'entry' | 'exit', tick: TickPoint | null, tone: ChartTone) => (
    <li data-testid={`ticks-${key}`} data-seq={tick?.seq ?? ''} data-price={tick?.price ?? ''} data-ts={tick?.ts ?? ''}>
      <span className={`trade-chart-dot is-${tone}`} aria-hidden="true" />
      <strong>{t(key === 'entry' ? 'options.ticks.entry' : 'options.ticks.exit')}</strong>{' '}
      {tick
        ? t('options.info.tick', {
            price: formatTickPrice(tick.price, lang, priceScale),
            seq: tick.seq,
            time: clock.format(tick.ts),
          })
        : '–'}
    </li>
  );

  return (
    <section className="option-ticks" aria-labelledby="option-ticks-title" data-testid="settled-ticks">
      <h2 className="option-title" id="option-ticks-title">
        {t('options.ticks.title')}
      </h2>
      <div className="trade-chart" aria-busy={recorded.isPending}>
        <div
          ref={box}
          className="trade-chart-canvas"
          role="img"
          aria-label={t('options.ticks.label', { symbol: contract.symbol })}
          data-testid="settled-chart"
          data-points={ticks?.length ?? 0}
        />
        {recorded.isPending ? <span className="spinner trade-chart-spinner" aria-hidden="true" /> : null}
        {recorded.isError ? (
          <p className="trade-chart-note" role="alert">
            {t('options.ticks.failed')}{' '}
            <button type="button" className="option-link" onClick={() => void recorded.refetch()}>
              {t('common.retry')}
            </button>
          </p>
        ) : null}
      </div>
      {marked ? (
        <>
          <ul className="trade-chart-legend">
            {legend('entry', marked.entry, 'accent')}
            {legend('exit', marked.exit, exitTone)}
          </ul>
          <p className="option-muted" data-testid="ticks-count">
            {t('options.ticks.count', { n: ticks?.length ?? 0 })}
            {recorded.data && recorded.data.step > 1
              ? ` · ${t('options.ticks.thinned', { step: recorded.data.step })}`
              : ''}
          </p>
          {marked.matches ? null : (
            <p className="field-msg field-error" role="alert" data-testid="ticks-differ">
              {t('options.ticks.differs')}
            </p>
          )}
        </>
      ) : null}
    </section>
  );
}
