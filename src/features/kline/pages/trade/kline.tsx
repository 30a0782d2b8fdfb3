import { Link } from '@tanstack/react-router';
import { lazy, type ReactElement, Suspense, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { isDecimalText, signOf } from '../../../../../core/decimal-text';
import { type InstrumentInfo, type Period, TIMEFRAMES } from '../../../../../protocol/market';
import type { CandleSeries } from '../../../../../streams/candles';
import { candleStream, coinQuotes, stockQuotes } from '../../../../../streams/market';
import { tradeStream } from '../../../../../streams/market-trades';
import type { QuoteBoard } from '../../../../../streams/quotes';
import { Page } from '../../../../components/Page';
import { Segmented } from '../../../../components/Segmented';
import { useQueryParam } from '../../../../hooks/hooks';
import { useStale, useStream } from '../../../../hooks/useStream';
import { formatPrice } from '../../../../lib/format';
import { chartIndicators } from '../../../../state/chart-indicators';
import { settings } from '../../../../state/settings';
import { Change, StaleMark, StaleNote, useInstruments } from '../../../market/public';
import { BarReadout } from '../../components/BarReadout';
import { CandleChart } from '../../components/CandleChart';
import { FullScreenButton } from '../../components/FullScreenButton';
import { IndicatorMenu } from '../../components/IndicatorMenu';
import { QuoteStats } from '../../components/QuoteStats';
import { TradeFromChart } from '../../components/TradeFromChart';
import { useFullScreen } from '../../hooks/useFullScreen';
import '../../../market/market.css';
import '../../kline.css';

// The recent trades sit below the chart and its figures, out of a phone's first screen: they load after the chart.
const TradeList = lazy(() => import('../../components/TradeList').then((m) => ({ default: m.TradeList })));
// The alert bell comes from the alerts feature's public surface, which is loaded lazily (its sheet and strings too).
const AlertButton = lazy(() => import('../../../alerts/public').then((m) => ({ default: m.AlertButton })));

/** The time-share line first, then the candle timeframes of SPEC 9. */
const CHOICES: readonly Period[] = ['timeshare', ...TIMEFRAMES];
const EMPTY_BOARD: QuoteBoard = { quotes: new Map(), version: 0 };
/** Studies drawn in a pane of their own below the price (the chart grows by one pane height for each). */
const PANE_STUDIES: readonly string[] = ['vol', 'macd', 'rsi'];
/** Spot trades every coin against USDT, except USDT itself; US stocks are quotes only (server spot terms). */
const SPOT_QUOTE = 'USDT';

/**
 * The chart of one timeframe. Keyed by the period where it is used, so a new timeframe starts empty: its own series
 * (never the last one of the previous timeframe, which would be drawn under the new label, and whose newer bars made
 * lightweight-charts throw "Cannot update oldest data" when the new timeframe's first tick came) and a new chart.
 */
function PeriodChart({ info, period, lang }: { info: InstrumentInfo; period: Period; lang: string }): ReactElement {
  const { t } = useTranslation();
  const { theme } = useSnapshot(settings);
  const { on } = useSnapshot(chartIndicators);
  const candles = useMemo(() => candleStream(info.kind, info.symbol, period), [info, period]);
  const series = useStream<CandleSeries | null>(candles.series$, null);
  const chartStale = useStale(candles.freshness);
  // The bucket start under the crosshair; the readout shows the newest bar when there is none.
  const [hovered, setHovered] = useState<number | null>(null);
  const bars = series?.candles ?? [];
  const bar = (hovered === null ? undefined : bars.find((b) => b.t === hovered)) ?? bars[bars.length - 1] ?? null;
  return (
    <>
      <BarReadout bar={bar} priceScale={info.price_scale} unit={info.symbol} lang={lang} />
      <div
        className={chartStale && series ? 'chart-box is-stale' : 'chart-box'}
        data-sub-panes={on.filter((i) => PANE_STUDIES.includes(i)).length}
        aria-busy={series === null}
      >
        <CandleChart
          series={series}
          mode={period === 'timeshare' ? 'line' : 'candles'}
          theme={theme}
          priceScale={info.price_scale}
          lang={lang}
          label={t('kline.chartLabel', { symbol: info.symbol, period: t(`kline.periods.${period}`) })}
          indicators={on}
          onHover={setHovered}
        />
        {series === null ? <span className="spinner chart-spinner" aria-hidden="true" /> : null}
      </div>
    </>
  );
}

function Chart({ info }: { info: InstrumentInfo }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [period, setPeriod] = useState<Period>('1min');
  const quotes = info.kind === 'stock' ? stockQuotes() : coinQuotes();
  const trades = useMemo(() => tradeStream(info.symbol), [info]);

  const board = useStream(quotes.board$, EMPTY_BOARD);
  const recent = useStream(trades.trades$, []);
  const stale = useStale(quotes.freshness);
  const quote = board.quotes.get(info.symbol);
  const pct = quote?.change_pct;
  const dir = pct !== undefined && isDecimalText(pct) && signOf(pct) < 0 ? 'is-down' : 'is-up';
  const chartArea = useRef<HTMLElement>(null);
  const full = useFullScreen(chartArea);
  const spot = info.kind === 'coin' && info.symbol !== SPOT_QUOTE;

  return (
    <>
      <section className="ticker" aria-live="off">
        <div className="ticker-main">
          <span className={`ticker-last ${dir}`} data-testid="last">
            {quote ? formatPrice(quote.last, lang, info.price_scale) : '–'}
          </span>
          <span className="ticker-sub">
            {quote ? <Change pct={quote.change_pct} lang={lang} /> : null}
            <span className="ticker-quote">{t('kline.quotedIn', { quote: info.quote })}</span>
            <StaleMark stale={stale && board.version > 0} />
          </span>
        </div>
        {quote ? <QuoteStats quote={quote} priceScale={info.price_scale} unit={info.symbol} /> : null}
      </section>
      <StaleNote stale={stale && board.version > 0} />
      <section ref={chartArea} className={full.on ? 'kline-chart is-full' : 'kline-chart'} data-testid="chart-area">
        <div className="periods">
          <Segmented
            label={t('kline.period')}
            value={period}
            onChange={setPeriod}
            options={CHOICES.map((p) => ({ value: p, label: t(`kline.periods.${p}`) }))}
          />
        </div>
        {/* The chart's tools: studies, a price alert on this instrument, full screen. */}
        <div className="chart-toolbar">
          <IndicatorMenu />
          <span className="chart-toolbar-end">
            <Suspense fallback={null}>
              <AlertButton symbol={info.symbol} />
            </Suspense>
            <FullScreenButton on={full.on} toggle={full.toggle} />
          </span>
        </div>
        <PeriodChart info={info} period={period} lang={lang} key={period} />
      </section>
      {spot ? <TradeFromChart symbol={info.symbol} /> : null}
      <h2 className="section-title">{t('kline.trades')}</h2>
      <Suspense fallback={null}>
        <TradeList trades={recent} priceScale={info.price_scale} qtyScale={info.qty_scale} />
      </Suspense>
    </>
  );
}

/** trade/kline?symbol=BTC: one instrument's live price, 24 h statistics, chart in every timeframe, recent trades. */
export default function KlinePage(): ReactElement {
  const { t } = useTranslation();
  const symbol = (useQueryParam('symbol') ?? 'BTC').toUpperCase();
  const instruments = useInstruments();
  const info = instruments.get(symbol);
  const title = info ? `${info.symbol}/${info.quote}` : symbol;
  return (
    <Page title={title} className="kline-page">
      {info ? (
        <Chart info={info} key={info.symbol} />
      ) : instruments.size === 0 ? (
        <div className="empty" aria-busy="true">
          <span className="spinner" aria-hidden="true" />
          <p>{t('common.loading')}</p>
        </div>
      ) : (
        <div className="empty">
          <p>{t('kline.unknown', { symbol })}</p>
          <Link to="/pages/index/index" className="btn btn-secondary btn-small">
            <span className="btn-label">{t('notFound.home')}</span>
          </Link>
        </div>
      )}
    </Page>
  );
}
