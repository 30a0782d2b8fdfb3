import { lazy, type ReactElement, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { OptionLive } from '../../../../machines/options/live';
import { coinQuotes } from '../../../../streams/market';
import { useQuote } from '../../../hooks/useQuote';
import { useStale } from '../../../hooks/useStream';
import { formatPrice } from '../../../lib/format';
import { Change, StaleMark, StaleNote } from '../../market/public';

/** The chart library loads with the tick chart, after the page's first paint: the route stays within its budget. */
const TickChart = lazy(() => import('./TickChart'));

/**
 * The instrument's last price and change, its tick chart (recorded ticks, then live, with the book's running
 * contracts' entry lines), and the stale mark once the coin prices have gone quiet after some were seen (the same
 * freshness that closes the book's gate). It follows its own instrument's quote, so the page around it does not
 * render with each price. Without the book's controller yet (`live` null: a tab opened first draws its price from the
 * page's market snapshot while its terms load, issue 27) the chart's place shows it loading.
 */
export function OptionTicker({
  symbol,
  priceScale,
  live,
}: {
  symbol: string;
  priceScale: number;
  live: OptionLive | null;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { quote, seen } = useQuote(symbol);
  const stale = useStale(coinQuotes().freshness) && seen;
  const chartLoading = (
    <div className="trade-chart" aria-busy="true">
      <span className="spinner trade-chart-spinner" aria-hidden="true" />
    </div>
  );
  return (
    <>
      <section className="option-ticker card">
        <div className="option-ticker-main">
          <span className="option-symbol-name">{symbol}/USDT</span>
          <span className="option-last" data-testid="option-last">
            {quote ? formatPrice(quote.last, lang, priceScale) : '–'}
          </span>
          {quote ? <Change pct={quote.change_pct} lang={lang} /> : null}
          <StaleMark stale={stale} />
        </div>
        <p className="option-muted">{t('options.lastPrice')}</p>
        {live ? (
          <Suspense fallback={chartLoading}>
            <TickChart symbol={symbol} priceScale={priceScale} live={live} stale={stale} />
          </Suspense>
        ) : (
          chartLoading
        )}
        <p className="option-muted">{t('options.chart.caption')}</p>
      </section>
      <StaleNote stale={stale} />
    </>
  );
}
