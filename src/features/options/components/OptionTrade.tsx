import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { lazy, type ReactElement, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { OptionAccount } from '../../../../protocol/options';
import { Icon } from '../../../components/Icon';
import { Page } from '../../../components/Page';
import { LoadingOrFailed } from '../../../components/StateView';
import { SymbolChips, SymbolChipsPending } from '../../../components/SymbolChips';
import { loadFailed, need } from '../../../data/query';
import { useQueryParam } from '../../../hooks/hooks';
import { formatAmount } from '../format';
import { useBookBalance } from '../hooks/useBookBalance';
import { useOptionLive } from '../hooks/useOptionLive';
import { usePriceScale } from '../hooks/usePriceScale';
import { optionKeys } from '../keys';
import { optionTermsQuery } from '../queries';
import { BookBar } from './BookBar';
import { ContractTicket } from './ContractTicket';
import { OptionTicker } from './OptionTicker';
import '../options.css';

/** The verification state matters on the real account only, and not for the first paint: it loads beside. */
const VerifyBanner = lazy(() => import('./VerifyPrompt'));
/** The running and settled lists sit below the ticket: they load after the page's first paint. */
const RunningContracts = lazy(() => import('./RunningContracts').then((m) => ({ default: m.RunningContracts })));
const RecentResults = lazy(() => import('./RecentResults').then((m) => ({ default: m.RecentResults })));

/**
 * The option trading screen on one book: option/detail (the Option tab, the real account) and option/simulator (the
 * same screen on the simulator book). An instrument, its live last price and its tick chart (loaded after the page), the ticket
 * driven by the contract machine, the open contracts counting down on server time and the recent results. The live
 * path runs in the book's controller (useOptionLive); the page renders with the terms, the balance and the book,
 * while the ticker, the ticket and the rows follow their own prices and clocks.
 */
export function OptionTrade({ book }: { book: OptionAccount }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const path = book === 'real' ? '/pages/option/detail' : '/pages/option/simulator';

  const terms = useQuery(optionTermsQuery);
  const currencyTerms = terms.data?.currencies[0] ?? null;
  const symbols = terms.data?.symbols ?? [];
  const asked = useQueryParam('symbol')?.toUpperCase();
  const symbol = asked && symbols.includes(asked) ? asked : (symbols[0] ?? 'BTC');
  // Until the terms have come, the asked instrument's price header from the page's market snapshot (a tab opened
  // first, issue 27): the same header, standing where it stays once the chips and the ticket arrive.
  const headerSymbol = terms.data ? (currencyTerms ? symbol : null) : (asked ?? null);
  const priceScale = usePriceScale(headerSymbol ?? symbol);

  const live = useOptionLive(book);
  const balance = useBookBalance(book, currencyTerms?.currency ?? 'USDT');

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
      {terms.data && currencyTerms ? (
        <SymbolChips
          symbols={symbols}
          value={symbol}
          onChange={(s) => void navigate({ to: path, search: { symbol: s } })}
          label={t('options.instrument')}
        />
      ) : (
        <SymbolChipsPending />
      )}
      {headerSymbol ? <OptionTicker symbol={headerSymbol} priceScale={priceScale} live={live} /> : null}
      {!terms.data || !currencyTerms || !live ? (
        <LoadingOrFailed failed={loadFailed(terms)} onRetry={() => void terms.refetch()} />
      ) : (
        <>
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
            ticket={live.actor.getSnapshot().context.ticket}
          />
          {/* Below the ticket, as on the Lever tab (LeverTrade.tsx says why). */}
          {book === 'real' ? (
            <Suspense fallback={null}>
              <VerifyBanner />
            </Suspense>
          ) : null}
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
          <Suspense fallback={null}>
            <RunningContracts live={live} />
            <RecentResults book={book} />
          </Suspense>
        </>
      )}
    </Page>
  );
}
