import { useSelector } from '@xstate/react';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { OptionLive } from '../../../../machines/options/live';
import type { OptionAccount } from '../../../../protocol/options';
import { useQuote } from '../../../hooks/useQuote';
import { formatPrice } from '../../../lib/format';
import { Change, StaleMark, StaleNote } from '../../market/public';
import { PriceSparkline } from './PriceSparkline';

/**
 * The instrument's last price and change, its time-share line with the ticket's running contract's entry, and the
 * stale mark when the book's gate is closed after prices were seen. It follows its own instrument's quote, so the
 * page around it does not render with each price.
 */
export function OptionTicker({
  symbol,
  book,
  priceScale,
  live,
}: {
  symbol: string;
  book: OptionAccount;
  priceScale: number;
  live: OptionLive;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { quote, seen } = useQuote(symbol);
  const fresh = useSelector(live.actor, (s) => s.context.fresh);
  // The entry line of the contract the ticket runs on this instrument and book, while it runs.
  const entry = useSelector(live.actor.getSnapshot().context.ticket, (s) => {
    const contract = s.context.contract;
    const running = s.matches({ contract: 'running' });
    return running && contract?.account === book && contract.symbol === symbol ? (contract.entry?.price ?? null) : null;
  });
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
        <PriceSparkline symbol={symbol} last={quote?.last ?? null} ts={quote?.ts ?? null} entry={entry} />
      </section>
      <StaleNote stale={stale} />
    </>
  );
}
