import { useSelector } from '@xstate/react';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverLive } from '../../../../machines/lever/live';
import type { LeverInstrument } from '../../../../protocol/lever';
import { useQuote } from '../../../hooks/useQuote';
import { formatPrice } from '../../../lib/format';
import { Change, StaleMark, StaleNote } from '../../market/public';

/**
 * The instrument's last price and change, with the stale mark when the book's gate is closed after prices were
 * seen. It follows its own instrument's quote, so the page around it does not render with each price.
 */
export function LeverTicker({ instrument, live }: { instrument: LeverInstrument; live: LeverLive }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { quote, seen } = useQuote(instrument.symbol);
  const fresh = useSelector(live.actor, (s) => s.context.fresh);
  const stale = !fresh && seen;
  return (
    <>
      <section className="lever-ticker card">
        <div className="lever-ticker-main">
          <span className="lever-symbol-name">{instrument.symbol}/USDT</span>
          <span className="lever-last" data-testid="lever-last">
            {quote ? formatPrice(quote.last, lang, instrument.price_scale) : '–'}
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
