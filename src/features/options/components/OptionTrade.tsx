import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactElement, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchOptionTerms } from '../../../../core/api/options';
import type { OptionAccount, OptionContract } from '../../../../protocol/options';
import { type TradingGate, tradingGate } from '../../../../streams/freshness';
import { coinQuotes } from '../../../../streams/market';
import { optionContracts } from '../../../../streams/options/contracts';
import type { QuoteBoard } from '../../../../streams/quotes';
import { Page } from '../../../app/Page';
import { Icon } from '../../../components/Icon';
import { LoadingOrFailed } from '../../../components/StateView';
import { SymbolChips } from '../../../components/SymbolChips';
import { loadFailed, need } from '../../../data/query';
import { useQueryParam } from '../../../hooks/hooks';
import { useStream } from '../../../hooks/useStream';
import { formatPrice } from '../../../lib/format';
import { useVerificationInfo } from '../../identity/hooks/useVerification';
import { Change } from '../../market/components/Change';
import { StaleMark, StaleNote } from '../../market/components/StaleMark';
import { formatAmount } from '../format';
import { useBookBalance } from '../hooks/useBookBalance';
import { useOptionTicket } from '../hooks/useOptionTicket';
import { usePriceScale } from '../hooks/usePriceScale';
import { useServerNow } from '../hooks/useServerNow';
import { optionKeys } from '../keys';
import { BookBar } from './BookBar';
import { ContractTicket } from './ContractTicket';
import { PriceSparkline } from './PriceSparkline';
import { RecentResults } from './RecentResults';
import { RunningContracts } from './RunningContracts';
import { VerifyBanner } from './VerifyPrompt';
import '../options.css';

const EMPTY_BOARD: QuoteBoard = { quotes: new Map(), version: 0 };
const CLOSED_GATE: TradingGate = { allowed: false, reason: 'stale' };

/**
 * The option trading screen on one book: option/detail (the Option tab, the real account) and option/simulator (the
 * same screen on the simulator book). An instrument, its live last price and a small time-share line, the ticket
 * driven by the contract machine, the open contracts counting down on server time and the recent results.
 */
export function OptionTrade({ book }: { book: OptionAccount }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const path = book === 'real' ? '/pages/option/detail' : '/pages/option/simulator';

  const terms = useQuery({ queryKey: optionKeys.terms, queryFn: () => need(fetchOptionTerms()) });
  const currencyTerms = terms.data?.currencies[0] ?? null;
  const symbols = terms.data?.symbols ?? [];
  const asked = useQueryParam('symbol')?.toUpperCase();
  const symbol = asked && symbols.includes(asked) ? asked : (symbols[0] ?? 'BTC');
  const priceScale = usePriceScale(symbol);

  const quotes = coinQuotes();
  const board = useStream(quotes.board$, EMPTY_BOARD);
  const gate$ = useMemo(() => tradingGate(quotes.freshness), [quotes]);
  const gate = useStream(gate$, CLOSED_GATE);
  const contracts = useMemo(() => optionContracts(), []);
  const open = useStream<OptionContract[] | null>(contracts.open$, null);
  const now = useServerNow();
  const { view, send } = useOptionTicket(contracts, gate, now);
  const balance = useBookBalance(book, currencyTerms?.currency ?? 'USDT');
  const verification = useVerificationInfo();
  const unverified = book === 'real' && verification.info !== null && verification.info.basic.state !== 'verified';

  const quote = board.quotes.get(symbol);
  const stale = !gate.allowed && board.version > 0;
  const mine = open?.filter((c) => c.account === book) ?? null;
  const ticketContract = view.contract?.account === book && view.contract.symbol === symbol ? view.contract : null;

  return (
    <Page
      title={book === 'real' ? t('options.title') : t('options.simulatorTitle')}
      left={book === 'real' ? 'menu' : 'back'}
      className={book === 'simulator' ? 'option-page is-practice' : 'option-page'}
      right={
        <Link to="/pages/option/rule" className="option-nav-link" aria-label={t('options.rules.title')}>
          <Icon name="document" size={20} />
        </Link>
      }
    >
      <BookBar book={book} />
      {!terms.data || !currencyTerms ? (
        <LoadingOrFailed failed={loadFailed(terms)} onRetry={() => void terms.refetch()} />
      ) : (
        <>
          {unverified ? <VerifyBanner /> : null}
          <SymbolChips
            symbols={symbols}
            value={symbol}
            onChange={(s) => void navigate({ to: path, search: { symbol: s } })}
            label={t('options.instrument')}
          />
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
            <PriceSparkline
              symbol={symbol}
              last={quote?.last ?? null}
              ts={quote?.ts ?? null}
              entry={view.phase === 'running' ? (ticketContract?.entry?.price ?? null) : null}
            />
          </section>
          <StaleNote stale={stale} />
          {balance.failed ? (
            <p className="field-msg field-error" role="alert">
              {t('options.balanceFailed')}{' '}
              <button type="button" className="option-link" onClick={balance.reload}>
                {t('common.retry')}
              </button>
            </p>
          ) : null}
          <ContractTicket
            key={`${symbol}:${book}`}
            symbol={symbol}
            book={book}
            terms={currencyTerms}
            available={balance.available}
            last={quote?.last ?? null}
            view={view}
            send={send}
          />
          {book === 'simulator' && balance.available !== null ? (
            <p className="option-muted" data-testid="practice-balance">
              {t('options.book.practiceFunds', {
                amount: formatAmount(balance.available, lang),
                currency: balance.currency,
              })}
            </p>
          ) : null}
          <p className="option-risk" data-testid="risk-note">
            <Icon name="alert" size={16} />
            <span>
              {t('options.risk')}{' '}
              <Link to="/pages/option/rule" className="option-link">
                {t('options.rules.link')}
              </Link>
            </span>
          </p>
          <RunningContracts contracts={mine} quotes={board.quotes} now={now} fresh={gate.allowed} />
          <RecentResults book={book} />
        </>
      )}
    </Page>
  );
}
