import { Link } from '@tanstack/react-router';
import { type HTMLAttributes, memo, type ReactElement, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { InstrumentInfo, Quote } from '../../../../protocol/market';
import { Icon } from '../../../components/Icon';
import { useLiveCell } from '../hooks/useLiveCell';
import type { FrameWriter } from '../live/frameWriter';
import { changeCell, changeClass, lastCell, QuoteTexts, volumeCell } from '../live/quoteCells';

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
 * One instrument's line, rendered by React only when the row itself changes (instrument facts, favourite, language):
 * its live cells (volume, last price, change badge) are written by `writer` once a frame, so a price tick costs no
 * render at all; at 200 updates a second that is most of the work saved.
 */
const QuoteLine = memo(function QuoteLine({
  row: { quote, info, favourite },
  texts,
  writer,
  onFavourite,
}: {
  row: QuoteRow;
  texts: QuoteTexts;
  writer: FrameWriter<Quote>;
  onFavourite: ((symbol: string, on: boolean) => void) | undefined;
}): ReactElement {
  const { t } = useTranslation();
  const { symbol } = quote;
  const scale = info?.price_scale ?? 2;
  const volumeRef = useLiveCell(
    writer,
    symbol,
    useMemo(() => volumeCell(texts), [texts]),
  );
  const lastRef = useLiveCell(
    writer,
    symbol,
    useMemo(() => lastCell(texts, scale), [texts, scale]),
  );
  const changeRef = useLiveCell(
    writer,
    symbol,
    useMemo(() => changeCell(texts, true), [texts]),
  );
  return (
    <li className="quote-row" data-symbol={symbol}>
      {onFavourite ? (
        <button
          type="button"
          className={favourite ? 'fav-btn is-fav' : 'fav-btn'}
          aria-pressed={favourite}
          aria-label={t(favourite ? 'market.removeFavourite' : 'market.addFavourite', { symbol })}
          onClick={() => onFavourite(symbol, !favourite)}
        >
          <Icon name="star" size={16} />
        </button>
      ) : null}
      <Link to="/pages/trade/kline" search={{ symbol }} className="quote-link">
        <span className="quote-name">
          <strong>{symbol}</strong>
          <small>/{info?.quote ?? 'USDT'}</small>
          <span className="quote-vol">
            {/* Every figure with its unit: the volume is traded quantity of the instrument itself. */}
            {t('market.vol')} <span ref={volumeRef} />
            {'\u00a0'}
            {symbol}
          </span>
        </span>
        {/* Live cells: filled by the writer when mounted, then kept current by it (never by React). */}
        <span className="quote-last" data-testid="last" ref={lastRef} />
        <span className={changeClass('flat', true)} ref={changeRef} />
      </Link>
    </li>
  );
}, sameLine);

type LineProps = { row: QuoteRow; texts: QuoteTexts; writer: unknown; onFavourite: unknown };

/** The quote itself is not compared: its live values reach the screen through the writer. */
function sameLine(a: LineProps, b: LineProps): boolean {
  return (
    a.row.quote.symbol === b.row.quote.symbol &&
    a.row.info === b.row.info &&
    a.row.favourite === b.row.favourite &&
    a.texts === b.texts &&
    a.writer === b.writer &&
    a.onFavourite === b.onFavourite
  );
}

/**
 * The live market list: instrument and volume, last price, 24 h change. Each row opens the instrument's chart;
 * the star (when `onFavourite` is given) adds or removes a favourite; `hold` (when given) handles a row held.
 */
export function QuoteTable({
  rows,
  sort,
  onSort,
  onFavourite,
  hold,
  stale,
  writer,
}: {
  rows: readonly QuoteRow[];
  /** Null: the server's order (by instrument). */
  sort: Sort | null;
  onSort: (s: Sort) => void;
  onFavourite?: (symbol: string, on: boolean) => void;
  /** Handlers for a row held or its context menu (useRowHold), on the list as a whole. */
  hold?: HTMLAttributes<HTMLElement>;
  stale: boolean;
  /** Writes the rows' live cells; fed by the caller with every board. */
  writer: FrameWriter<Quote>;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const texts = useMemo(() => new QuoteTexts(lang), [lang]);
  return (
    <div className={stale ? 'quotes is-stale' : 'quotes'} {...hold}>
      <div className="quotes-head">
        <SortButton sort={sort} by="symbol" label={t('market.columns.pair')} onSort={onSort} />
        <SortButton sort={sort} by="volume" label={t('market.columns.volume')} onSort={onSort} />
        <SortButton sort={sort} by="last" label={t('market.columns.last')} onSort={onSort} />
        <SortButton sort={sort} by="change" label={t('market.columns.change')} onSort={onSort} />
      </div>
      <ul className="quotes-list">
        {rows.map((row) => (
          <QuoteLine key={row.quote.symbol} row={row} texts={texts} writer={writer} onFavourite={onFavourite} />
        ))}
      </ul>
    </div>
  );
}
