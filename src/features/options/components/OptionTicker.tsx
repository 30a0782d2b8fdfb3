import { useSelector } from '@xstate/react';
import { lazy, type ReactElement, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { OptionLive } from '../../../../machines/options/live';
import { useQuote } from '../../../hooks/useQuote';
import { formatPrice } from '../../../lib/format';
import { Change, StaleMark, StaleNote } from '../../market/public';

/** The chart library loads with the tick chart, after the page's first paint: the route stays within its budget. */
const TickChart = lazy(() => import('./TickChart'));

/**
 * The instrument's last price and change, its tick chart (recorded ticks, then live, with the book's running
 * contracts' entry lines), and the stale mark when the book's gate is closed after prices were seen. It follows its
 * own instrument's quote, so the page around it does not render with each price.
 */
export function OptionTicker({
  symbol,
  priceScale,
  live,
}: {
  symbol: string;
  priceScale: number;
  live: OptionLive;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { quote, seen } = useQuote(symbol);
  const fresh = useSelector(live.actor, (s) => s.context.fresh);
  const stale = !fresh && seen;
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
        <Suspense
          fallback={
            <div className="trade-chart" aria-busy="true">
              <span className="spinner trade-chart-spinner" aria-hidden="true" />
            </div>
          }
        >
          <TickChart symbol={symbol} priceScale={priceScale} live={live} stale={stale} />
        </Suspense>
        <p className="option-muted">{t('options.chart.caption')}</p>
      </section>
      <StaleNote stale={stale} />
    </>
  );
}
