import { Link } from '@tanstack/react-router';
import { lazy, type ReactElement, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Quote } from '../../../../protocol/market';
import { coinQuotes, stockQuotes } from '../../../../streams/market';
import type { QuoteBoard } from '../../../../streams/quotes';
import { Icon } from '../../../components/Icon';
import { Segmented } from '../../../components/Segmented';
import { useStale } from '../../../hooks/useStream';
import { useFavourites } from '../hooks/useFavourites';
import { useInstruments } from '../hooks/useInstruments';
import { RESORT_MS, useLiveBoard } from '../hooks/useLiveBoard';
import { useRowHold } from '../hooks/useRowHold';
import { FrameWriter } from '../live/frameWriter';
import { QuoteTable, type Sort } from './QuoteTable';
import { quoteRows } from './rows';
import { StaleMark } from './StaleMark';

type Tab = 'favourites' | 'coins' | 'stocks';

/** The sheet that sets a price alert (src/features/alerts), loaded when a logged-in user holds a row. */
const AlertSheet = lazy(() => import('../../alerts/public').then((m) => ({ default: m.PriceAlertSheet })));

/**
 * The live markets on the home page: coins, US stocks and the user's favourites, with search and sorting; a logged-in
 * user holds a row (or right-clicks it) to set a price alert on it.
 * Prices arrive through the shared quote streams and are written into the rows' live cells once a frame (FrameWriter);
 * React renders the list only when its instruments change, or a few times a second while it is sorted by a live value.
 */
export function MarketBoard({
  initial,
}: {
  /** The coin list's first board, when the page came with one (the server's market snapshot). */
  initial?: QuoteBoard | undefined;
} = {}): ReactElement {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('coins');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<Sort | null>(null);
  const instruments = useInstruments();
  const { favourites, loggedIn, toggle } = useFavourites();
  const [alertFor, setAlertFor] = useState<string | null>(null);
  const hold = useRowHold(setAlertFor);

  const stream = tab === 'stocks' ? stockQuotes() : coinQuotes();
  const [writer] = useState(() => new FrameWriter<Quote>());
  const byValue = sort !== null && sort.key !== 'symbol';
  // Only the first render takes `initial` (the coins tab, which the list opens on).
  const board = useLiveBoard(stream.board$, writer, byValue ? RESORT_MS : null, initial);
  const stale = useStale(stream.freshness);

  const rows = useMemo(
    () =>
      quoteRows(board.quotes, instruments, favourites, {
        search,
        sort,
        ...(tab === 'favourites' ? { only: favourites } : {}),
      }),
    [board, instruments, favourites, search, sort, tab],
  );

  const loading = board.version === 0;
  let empty: ReactElement | null = null;
  if (tab === 'favourites' && !loggedIn) {
    empty = (
      <div className="empty">
        <p>{t('market.favouritesLogin')}</p>
        <Link to="/pages/user/login/login" className="btn btn-secondary btn-small">
          <span className="btn-label">{t('auth.login')}</span>
        </Link>
      </div>
    );
  } else if (loading) {
    empty = (
      <div className="empty" aria-busy="true">
        <span className="spinner" aria-hidden="true" />
        <p>{t('common.loading')}</p>
      </div>
    );
  } else if (rows.length === 0) {
    empty = (
      <div className="empty">
        <p>{tab === 'favourites' && !search ? t('market.noFavourites') : t('market.noMatch')}</p>
      </div>
    );
  }

  return (
    <section className="market-board" aria-labelledby="markets-title">
      <div className="section-head">
        <h2 className="section-title" id="markets-title">
          {t('market.title')}
        </h2>
        <StaleMark stale={stale && !loading} />
      </div>
      <Segmented
        label={t('market.title')}
        value={tab}
        onChange={setTab}
        options={[
          { value: 'favourites', label: t('market.tabs.favourites') },
          { value: 'coins', label: t('market.tabs.coins') },
          { value: 'stocks', label: t('market.tabs.stocks') },
        ]}
      />
      <label className="search-box">
        <Icon name="search" size={18} />
        <input
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={t('market.search')}
          aria-label={t('market.search')}
          autoComplete="off"
          enterKeyHint="search"
        />
      </label>
      {tab === 'stocks' ? <p className="hint">{t('market.stocksHint')}</p> : null}
      {/* Holding a row is not a gesture anyone guesses: say so above the rows. */}
      {loggedIn && !empty ? (
        <p className="hint" data-testid="hold-hint">
          {t('market.holdHint')}
        </p>
      ) : null}
      {empty ?? (
        <QuoteTable
          rows={rows}
          sort={sort}
          onSort={setSort}
          {...(loggedIn && tab !== 'stocks' ? { onFavourite: toggle } : {})}
          {...(loggedIn ? { hold } : {})}
          stale={stale}
          writer={writer}
        />
      )}
      {alertFor && loggedIn ? (
        <Suspense fallback={null}>
          <AlertSheet symbol={alertFor} onClose={() => setAlertFor(null)} />
        </Suspense>
      ) : null}
    </section>
  );
}
