import { Link } from '@tanstack/react-router';
import { memo, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { InstrumentInfo, Quote } from '../../../../protocol/market';
import { Icon } from '../../../components/Icon';
import { formatPrice, formatVolume } from '../../../lib/format';
import { Change } from './Change';

export type SortKey = 'symbol' | 'last' | 'change' | 'volume';
export interface Sort {
  key: SortKey;
  dir: 'asc' | 'desc';
}

export interface QuoteRow {
  quote: Quote;
  info: InstrumentInfo | undefined;
  favourite: boolean;
}

function SortButton({
  sort,
  by,
  label,
  onSort,
}: {
  sort: Sort | null;
  by: SortKey;
  label: string;
  onSort: (s: Sort) => void;
}): ReactElement {
  const active = sort?.key === by;
  const next: Sort = { key: by, dir: active && sort?.dir === 'desc' ? 'asc' : 'desc' };
  return (
    <button
      type="button"
      className={active ? 'sort-btn is-active' : 'sort-btn'}
      aria-pressed={active}
      onClick={() => onSort(next)}
    >
      {label}
      <span className="sort-arrow" aria-hidden="true">
        {active ? (sort?.dir === 'asc' ? '▲' : '▼') : '↕'}
      </span>
    </button>
  );
}

/**
 * One instrument's line. Memoised: a new board re-renders only the lines whose quote object changed (the merge
 * keeps unchanged quotes as the same objects), which is most of the work saved at 200 updates a second.
 */
const QuoteLine = memo(function QuoteLine({
  row: { quote, info, favourite },
  lang,
  onFavourite,
}: {
  row: QuoteRow;
  lang: string;
  onFavourite: ((symbol: string, on: boolean) => void) | undefined;
}): ReactElement {
  const { t } = useTranslation();
  return (
    <li className="quote-row" data-symbol={quote.symbol}>
      {onFavourite ? (
        <button
          type="button"
          className={favourite ? 'fav-btn is-fav' : 'fav-btn'}
          aria-pressed={favourite}
          aria-label={t(favourite ? 'market.removeFavourite' : 'market.addFavourite', { symbol: quote.symbol })}
          onClick={() => onFavourite(quote.symbol, !favourite)}
        >
          <Icon name="star" size={16} />
        </button>
      ) : null}
      <Link to="/pages/trade/kline" search={{ symbol: quote.symbol }} className="quote-link">
        <span className="quote-name">
          <strong>{quote.symbol}</strong>
          <small>/{info?.quote ?? 'USDT'}</small>
          <span className="quote-vol">
            {t('market.vol')} {formatVolume(quote.volume, lang)}
          </span>
        </span>
        <span className="quote-last" data-testid="last">
          {formatPrice(quote.last, lang, info?.price_scale ?? 2)}
        </span>
        <Change pct={quote.change_pct} lang={lang} filled />
      </Link>
    </li>
  );
}, sameLine);

function sameLine(
  a: { row: QuoteRow; lang: string; onFavourite: unknown },
  b: { row: QuoteRow; lang: string; onFavourite: unknown },
): boolean {
  return (
    a.row.quote === b.row.quote &&
    a.row.info === b.row.info &&
    a.row.favourite === b.row.favourite &&
    a.lang === b.lang &&
    a.onFavourite === b.onFavourite
  );
}

/**
 * The live market list: instrument and volume, last price, 24 h change. Each row opens the instrument's chart;
 * the star (when `onFavourite` is given) adds or removes a favourite.
 */
export function QuoteTable({
  rows,
  sort,
  onSort,
  onFavourite,
  stale,
}: {
  rows: readonly QuoteRow[];
  /** Null: the server's order (by instrument). */
  sort: Sort | null;
  onSort: (s: Sort) => void;
  onFavourite?: (symbol: string, on: boolean) => void;
  stale: boolean;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <div className={stale ? 'quotes is-stale' : 'quotes'}>
      <div className="quotes-head">
        <SortButton sort={sort} by="symbol" label={t('market.columns.pair')} onSort={onSort} />
        <SortButton sort={sort} by="volume" label={t('market.columns.volume')} onSort={onSort} />
        <SortButton sort={sort} by="last" label={t('market.columns.last')} onSort={onSort} />
        <SortButton sort={sort} by="change" label={t('market.columns.change')} onSort={onSort} />
      </div>
      <ul className="quotes-list">
        {rows.map((row) => (
          <QuoteLine key={row.quote.symbol} row={row} lang={lang} onFavourite={onFavourite} />
        ))}
      </ul>
    </div>
  );
}
