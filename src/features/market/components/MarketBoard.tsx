import { Link } from '@tanstack/react-router';
import { type ReactElement, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { coinQuotes, stockQuotes } from '../../../../streams/market';
import type { QuoteBoard } from '../../../../streams/quotes';
import { Icon } from '../../../components/Icon';
import { Segmented } from '../../../components/Segmented';
import { useStale, useStream } from '../../../hooks/useStream';
import { useFavourites } from '../hooks/useFavourites';
import { useInstruments } from '../hooks/useInstruments';
import { QuoteTable, type Sort } from './QuoteTable';
import { quoteRows } from './rows';
import { StaleMark } from './StaleMark';

type Tab = 'favourites' | 'coins' | 'stocks';
const EMPTY: QuoteBoard = { quotes: new Map(), version: 0 };

/**
 * The live markets on the home page: coins, US stocks and the user's favourites, with search and sorting.
 * Prices arrive through the shared quote streams, at most one render per frame.
 */
export function MarketBoard(): ReactElement {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('coins');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<Sort | null>(null);
  const instruments = useInstruments();
  const { favourites, loggedIn, toggle } = useFavourites();

  const coins = coinQuotes();
  const stocks = stockQuotes();
  const wantCoins = tab !== 'stocks';
  const wantStocks = tab === 'stocks';
  const coinBoard = useStream(wantCoins ? coins.board$ : null, EMPTY);
  const stockBoard = useStream(wantStocks ? stocks.board$ : null, EMPTY);
  const stale = useStale(wantStocks ? stocks.freshness : coins.freshness);
  const board = wantStocks ? stockBoard : coinBoard;

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
      {empty ?? (
        <QuoteTable
          rows={rows}
          sort={sort}
          onSort={setSort}
          {...(loggedIn && tab !== 'stocks' ? { onFavourite: toggle } : {})}
          stale={stale}
        />
      )}
    </section>
  );
}
