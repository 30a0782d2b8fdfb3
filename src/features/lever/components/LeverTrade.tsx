import { Link, useNavigate } from '@tanstack/react-router';
import { lazy, type ReactElement, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverAccount } from '../../../../protocol/lever';
import { snapshotInstrument } from '../../../../streams/snapshot-board';
import { Icon } from '../../../components/Icon';
import { Page } from '../../../components/Page';
import { LoadingOrFailed } from '../../../components/StateView';
import { SymbolChips, SymbolChipsPending } from '../../../components/SymbolChips';
import { loadFailed } from '../../../data/query';
import { useQueryParam } from '../../../hooks/hooks';
import { formatAmount } from '../format';
import { useLeverDeal } from '../hooks/useLeverDeal';
import { useLeverLive } from '../hooks/useLeverLive';
import { BookBar } from './BookBar';
import { ChartPanel } from './ChartPanel';
import { LeverLists } from './LeverLists';
import { LeverTicker } from './LeverTicker';
import { LeverTicket } from './LeverTicket';
import '../lever.css';

/** The verification state matters on the real account only, and not for the first paint: it loads beside. */
const VerifyBanner = lazy(() => import('./VerifyPrompt'));

/**
 * The contract trading screen on one book: lever/index (the Lever tab, the real account) and lever/simulator (the
 * same screen on the simulator book). An instrument and its live last price, the ticket driven by the order
 * machine (with what it would hold before confirming), and the book's positions, orders and history, whose live
 * figures come from the positions worker. The live path runs in the book's controller (useLeverLive); the page
 * draws what it holds and renders when the deal, the gate or the open lists change, not with every price.
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
  // Until the deal has come, the asked instrument's price header (a tab opened first, issue 27): its price from the
  // page's market snapshot when that has one, at the decimals the snapshot gives; the same header as the first paint
  // draws, standing where it stays once the chips and the ticket arrive.
  const earlyScale = useMemo(() => (asked ? snapshotInstrument(asked)?.price_scale : undefined), [asked]);
  const header = instrument
    ? { symbol: instrument.symbol, priceScale: instrument.price_scale }
    : !deal.data && asked
      ? { symbol: asked, priceScale: earlyScale ?? 2 }
      : null;

  const live = useLeverLive(book);

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
      {instrument ? (
        <SymbolChips
          symbols={instruments.map((i) => i.symbol)}
          value={instrument.symbol}
          onChange={(s) => void navigate({ to: path, search: { symbol: s } })}
          label={t('lever.instrument')}
        />
      ) : (
        <SymbolChipsPending />
      )}
      {header ? <LeverTicker symbol={header.symbol} priceScale={header.priceScale} /> : null}
      {!deal.data || !instrument || !live ? (
        <LoadingOrFailed failed={loadFailed(deal)} onRetry={() => void deal.refetch()} />
      ) : (
        <>
          <ChartPanel symbol={instrument.symbol} priceScale={instrument.price_scale} live={live} />
          <LeverTicket
            key={`${instrument.symbol}:${book}`}
            book={book}
            instrument={instrument}
            quoteScale={deal.data.scale}
            available={deal.data.available}
            ticket={live.actor.getSnapshot().context.ticket}
          />
          {/* Below the ticket: the banner's answer comes after the page has drawn, and appearing here it moves
              nothing on screen (above the chips it pushed the whole page down: Lighthouse's layout shift 0.097). */}
          {book === 'real' ? (
            <Suspense fallback={null}>
              <VerifyBanner />
            </Suspense>
          ) : null}
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
          <LeverLists book={book} live={live} instruments={instruments} quoteScale={deal.data.scale} />
        </>
      )}
    </Page>
  );
}
