import { Link, useNavigate } from '@tanstack/react-router';
import { lazy, type ReactElement, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverAccount } from '../../../../protocol/lever';
import { type TradingGate, tradingGate } from '../../../../streams/freshness';
import { type BookLists, inBook, leverPositions } from '../../../../streams/lever/positions';
import { coinQuotes } from '../../../../streams/market';
import type { QuoteBoard } from '../../../../streams/quotes';
import { Page } from '../../../app/Page';
import { Icon } from '../../../components/Icon';
import { LoadingOrFailed } from '../../../components/StateView';
import { SymbolChips } from '../../../components/SymbolChips';
import { loadFailed } from '../../../data/query';
import { useQueryParam } from '../../../hooks/hooks';
import { useStream } from '../../../hooks/useStream';
import { formatPrice } from '../../../lib/format';
import { Change } from '../../market/components/Change';
import { StaleMark, StaleNote } from '../../market/components/StaleMark';
import { formatAmount } from '../format';
import { useLeverDeal } from '../hooks/useLeverDeal';
import { useLeverTicket } from '../hooks/useLeverTicket';
import { useLivePositions } from '../hooks/useLivePositions';
import { BookBar } from './BookBar';
import { LeverLists } from './LeverLists';
import { LeverTicket } from './LeverTicket';
import '../lever.css';

/** The verification state matters on the real account only, and not for the first paint: it loads beside. */
const VerifyBanner = lazy(() => import('./VerifyPrompt'));

const EMPTY_BOARD: QuoteBoard = { quotes: new Map(), version: 0 };
const CLOSED_GATE: TradingGate = { allowed: false, reason: 'stale' };

/**
 * The contract trading screen on one book: lever/index (the Lever tab, the real account) and lever/simulator (the
 * same screen on the simulator book). An instrument and its live last price, the ticket driven by the order
 * machine (with what it would hold before confirming), and the book's positions, orders and history, whose live
 * figures come from the positions worker.
 */
export function LeverTrade({ book }: { book: LeverAccount }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const path = book === 'real' ? '/pages/lever/index' : '/pages/lever/simulator';

  const deal = useLeverDeal(book);
  const instruments = deal.data?.instruments ?? [];
  const asked = useQueryParam('symbol')?.toUpperCase();
  const instrument = instruments.find((i) => i.symbol === asked) ?? instruments[0] ?? null;

  const quotes = coinQuotes();
  const board = useStream(quotes.board$, EMPTY_BOARD);
  const gate$ = useMemo(() => tradingGate(quotes.freshness), [quotes]);
  const gate = useStream(gate$, CLOSED_GATE);
  const stream = useMemo(() => leverPositions(), []);
  const lists$ = useMemo(() => stream.open$.pipe(inBook(book)), [stream, book]);
  const lists = useStream<BookLists | null>(lists$, null);
  const figures = useLivePositions(book, deal.data, lists?.positions ?? null);
  const { view, send } = useLeverTicket(stream, gate.allowed);

  const quote = instrument ? board.quotes.get(instrument.symbol) : undefined;
  const stale = !gate.allowed && board.version > 0;

  return (
    <Page
      title={book === 'real' ? t('lever.title') : t('lever.simulatorTitle')}
      left={book === 'real' ? 'menu' : 'back'}
      className={book === 'simulator' ? 'lever-page is-practice' : 'lever-page'}
      right={
        <Link to="/pages/lever/rule" className="lever-nav-link" aria-label={t('lever.ruleLink')}>
          <Icon name="document" size={20} />
        </Link>
      }
    >
      <BookBar book={book} />
      {!deal.data || !instrument ? (
        <LoadingOrFailed failed={loadFailed(deal)} onRetry={() => void deal.refetch()} />
      ) : (
        <>
          {book === 'real' ? (
            <Suspense fallback={null}>
              <VerifyBanner />
            </Suspense>
          ) : null}
          <SymbolChips
            symbols={instruments.map((i) => i.symbol)}
            value={instrument.symbol}
            onChange={(s) => void navigate({ to: path, search: { symbol: s } })}
            label={t('lever.instrument')}
          />
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
          <LeverTicket
            key={`${instrument.symbol}:${book}`}
            book={book}
            instrument={instrument}
            quoteScale={deal.data.scale}
            available={deal.data.available}
            last={quote?.last ?? null}
            view={view}
            send={send}
          />
          {book === 'simulator' ? (
            <p className="lever-muted" data-testid="practice-balance">
              {t('lever.book.practiceFunds', {
                amount: formatAmount(deal.data.available, lang),
                currency: deal.data.currency,
              })}
            </p>
          ) : null}
          <p className="lever-risk" data-testid="risk-note">
            <Icon name="alert" size={16} />
            <span>
              {t('lever.risk')}{' '}
              <Link to="/pages/lever/rule" className="lever-link">
                {t('lever.ruleLink')}
              </Link>
            </span>
          </p>
          <LeverLists
            book={book}
            lists={lists}
            board={figures}
            instruments={instruments}
            quoteScale={deal.data.scale}
            fresh={gate.allowed}
          />
        </>
      )}
    </Page>
  );
}
