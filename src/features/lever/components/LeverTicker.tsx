import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { coinQuotes } from '../../../../streams/market';
import { useQuote } from '../../../hooks/useQuote';
import { useStale } from '../../../hooks/useStream';
import { formatPrice } from '../../../lib/format';
import { Change, StaleMark, StaleNote } from '../../market/public';

/**
 * The instrument's last price and change, with the stale mark once the coin prices have gone quiet after some were
 * seen (the same freshness that closes the book's trading gate). It follows its own instrument's quote, so the page
 * around it does not render with each price; it needs neither the deal nor the book's controller, so a tab opened
 * first shows it from the page's market snapshot while those load (issue 27).
 */
export function LeverTicker({ symbol, priceScale }: { symbol: string; priceScale: number }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { quote, seen } = useQuote(symbol);
  const stale = useStale(coinQuotes().freshness) && seen;
  return (
    <>
      <section className="lever-ticker card">
        <div className="lever-ticker-main">
          <span className="lever-symbol-name">{symbol}/USDT</span>
          <span className="lever-last" data-testid="lever-last">
            {quote ? formatPrice(quote.last, lang, priceScale) : '–'}
          </span>
          {quote ? <Change pct={quote.change_pct} lang={lang} /> : null}
          <StaleMark stale={stale} />
        </div>
        <p className="lever-muted">{t('lever.lastPrice')}</p>
      </section>
      <StaleNote stale={stale} />
    </>
  );
}
