import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactElement, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchAssets } from '../../../../../core/api/wallet';
import type { SpotOrderRef } from '../../../../../machines/spot/book.machine';
import { toUnits } from '../../../../../protocol/rules/spot';
import type { OrderSide } from '../../../../../protocol/spot';
import { coinQuotes } from '../../../../../streams/market';
import type { QuoteBoard } from '../../../../../streams/quotes';
import { snapshotBoard, snapshotInstrument } from '../../../../../streams/snapshot-board';
import { Icon } from '../../../../components/Icon';
import { Page } from '../../../../components/Page';
import { LoadingOrFailed } from '../../../../components/StateView';
import { keys } from '../../../../data/keys';
import { loadFailed, need } from '../../../../data/query';
import { useQueryParam } from '../../../../hooks/hooks';
import { useStale, useStream } from '../../../../hooks/useStream';
import { formatPrice } from '../../../../lib/format';
import { Change, StaleMark, StaleNote, useFavourites } from '../../../market/public';
import { OrderLists } from '../../components/OrderLists';
import { type Balances, OrderTicket } from '../../components/OrderTicket';
import { PairPicker } from '../../components/PairPicker';
import { useSpotLive, useSpotOrderActor } from '../../hooks/useSpotLive';
import { spotKeys } from '../../keys';
import { spotConfigQuery } from '../../queries';
import { type PairTerms, pairTerms } from '../../ticket';
import '../../spot.css';

const EMPTY_BOARD: QuoteBoard = { quotes: new Map(), version: 0 };

/** The coin account's available USDT and coin, at their ledger scales. */
function useBalances(coin: string): Balances | null {
  const assets = useQuery({ queryKey: keys.assets('coin'), queryFn: () => need(fetchAssets('coin')) });
  const rows = assets.data?.accounts.find((a) => a.type === 'coin')?.rows;
  if (!rows) return null;
  const of = (currency: string) => {
    const row = rows.find((r) => r.currency === currency);
    const scale = row?.scale ?? (currency === 'USDT' ? 6 : 8);
    return { units: (row && toUnits(row.available, scale)) ?? 0n, scale };
  };
  return { usdt: of('USDT'), coin: of(coin) };
}

/**
 * trade/index, the Spot tab: a pair (picker with search and favourites), its live price and 24 h change, a link to
 * its chart, the buy/sell ticket driven by the order machine, the open orders with cancel and the paged history
 * with each fill's detail. Buying and selling stop while the price is stale (the market feature's freshness gate).
 */
export default function SpotPage(): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const symbol = (useQueryParam('symbol') ?? 'BTC').toUpperCase();
  // trade/index?symbol=ETH&side=sell: the chart's Sell opens the ticket on selling; anything else buys.
  const side: OrderSide = useQueryParam('side') === 'sell' ? 'sell' : 'buy';
  const [picking, setPicking] = useState(false);

  const config = useQuery(spotConfigQuery);
  const quotes = coinQuotes();
  // The page's market snapshot, when it is the first page opened (issue 27): the price header needs no socket.
  const first = useMemo(() => snapshotBoard() ?? EMPTY_BOARD, []);
  const board = useStream(quotes.board$, first);
  const live = useSpotLive();
  const { favourites } = useFavourites();
  const balances = useBalances(symbol);

  const terms = config.data ? pairTerms(config.data, symbol) : null;
  const quote = board.quotes.get(symbol);
  const priceScale = terms?.pair.price_scale ?? snapshotInstrument(symbol)?.price_scale ?? 2;
  // The same freshness that closes the book's trading gate.
  const stale = useStale(quotes.freshness) && board.version > 0;

  return (
    <Page title={t('spot.title')} left="menu" className="spot-page">
      {/* The price header needs neither the pairs' terms nor the live book: a tab opened first draws it from the
          page's market snapshot at once (issue 27), where it stays when the rest of the page arrives. */}
      <section className="spot-ticker card" aria-live="off">
        <button type="button" className="spot-pair-button" onClick={() => setPicking(true)} data-testid="pair-button">
          <span className="spot-pair-symbol">{symbol}/USDT</span>
          <Icon name="chevron" size={16} label={t('spot.choosePair')} />
        </button>
        <div className="spot-ticker-main">
          <span className="spot-last" data-testid="spot-last">
            {quote ? formatPrice(quote.last, lang, priceScale) : '–'}
          </span>
          {quote ? <Change pct={quote.change_pct} lang={lang} /> : null}
          <StaleMark stale={stale} />
        </div>
        <Link
          to="/pages/trade/kline"
          search={{ symbol }}
          className="spot-chart-link"
          aria-label={t('spot.chartOf', { symbol })}
        >
          <Icon name="pulse" size={18} />
          {t('spot.chart')}
        </Link>
      </section>
      <StaleNote stale={stale} />
      {!config.data || !live ? (
        <LoadingOrFailed failed={loadFailed(config)} onRetry={() => void config.refetch()} />
      ) : (
        <>
          {terms ? (
            <LiveTicket
              key={`${symbol}:${side}`}
              side={side}
              ticket={live.actor.getSnapshot().context.ticket}
              terms={terms}
              last={quote?.last ?? null}
              balances={balances}
            />
          ) : (
            <p className="spot-empty">{t('spot.unknownPair', { symbol })}</p>
          )}
          <p className="spot-risk" data-testid="risk-note">
            <Icon name="alert" size={16} />
            {t('spot.risk')}
          </p>
          <OrderLists symbol={symbol} live={live} />
          <PairPicker
            open={picking}
            pairs={config.data.pairs}
            quotes={board.quotes}
            favourites={favourites}
            onClose={() => setPicking(false)}
            onPick={(s) => {
              setPicking(false);
              void navigate({ to: '/pages/trade/index', search: { symbol: s } });
            }}
          />
        </>
      )}
    </Page>
  );
}

/** The ticket, drawn from its order machine in the live book. */
function LiveTicket({
  ticket,
  terms,
  last,
  balances,
  side,
}: {
  ticket: SpotOrderRef;
  terms: PairTerms;
  last: string | null;
  balances: Balances | null;
  side: OrderSide;
}): ReactElement {
  const { view, send } = useSpotOrderActor(ticket);
  return <OrderTicket terms={terms} last={last} balances={balances} view={view} send={send} initialSide={side} />;
}
