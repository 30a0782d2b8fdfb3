import { lazy, memo, type ReactElement, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverAccount, LeverInstrument } from '../../../../protocol/lever';
import type { BookLists } from '../../../../streams/lever/positions';
import { Segmented } from '../../../components/Segmented';
import { LoadingOrFailed } from '../../../components/StateView';
import type { FigureBoard } from '../live/figureBoard';
import { BookTotalsBar } from './BookTotalsBar';
import { PositionRow } from './PositionRow';

/** The history (a paged query) loads with its tab: the open lists are what the page shows first. */
const HistoryList = lazy(() => import('./HistoryList'));
/** Pending orders are a tab away too (the positions show first). */
const OrderRow = lazy(() => import('./OrderRow'));

type Tab = 'positions' | 'orders' | 'history';

/**
 * The book's open positions (live figures from the worker), its pending orders (status 0) and its history
 * (closed and cancelled, paged), as three tabs. Open lists come from the merged positions stream.
 */
/**
 * Memoised: the page renders again on every frame of quotes (its ticker and ticket follow the last price), and the
 * lists must not follow it; rows render from their own figures (PositionRow's LiveFacts) and their own machines.
 */
export const LeverLists = memo(function LeverLists({
  book,
  lists,
  board,
  instruments,
  quoteScale,
  fresh,
}: {
  book: LeverAccount;
  lists: BookLists | null;
  board: FigureBoard | null;
  instruments: readonly LeverInstrument[];
  quoteScale: number;
  fresh: boolean;
}): ReactElement {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('positions');
  const scaleOf = (symbol: string) => instruments.find((i) => i.symbol === symbol)?.price_scale ?? 2;
  return (
    <section className="lever-lists" aria-label={t('lever.tabs.label')}>
      <Segmented
        label={t('lever.tabs.label')}
        value={tab}
        onChange={setTab}
        options={[
          { value: 'positions', label: t('lever.tabs.positions', { n: lists?.positions.length ?? 0 }) },
          { value: 'orders', label: t('lever.tabs.orders', { n: lists?.orders.length ?? 0 }) },
          { value: 'history', label: t('lever.tabs.history') },
        ]}
      />
      {tab === 'history' ? (
        <Suspense fallback={<LoadingOrFailed failed={false} onRetry={() => {}} />}>
          <HistoryList book={book} scaleOf={scaleOf} />
        </Suspense>
      ) : lists === null ? (
        <LoadingOrFailed failed={false} onRetry={() => {}} />
      ) : tab === 'positions' ? (
        lists.positions.length === 0 ? (
          <p className="lever-empty">{t('lever.positions.empty')}</p>
        ) : (
          <>
            <BookTotalsBar board={board} />
            <ul className="lever-list" data-testid="positions">
              {lists.positions.map((p) => (
                <PositionRow
                  key={p.id}
                  position={p}
                  board={board}
                  priceScale={scaleOf(p.symbol)}
                  quoteScale={quoteScale}
                  fresh={fresh}
                />
              ))}
            </ul>
          </>
        )
      ) : lists.orders.length === 0 ? (
        <p className="lever-empty">{t('lever.orders.empty')}</p>
      ) : (
        <Suspense fallback={<LoadingOrFailed failed={false} onRetry={() => {}} />}>
          <ul className="lever-list" data-testid="orders">
            {lists.orders.map((o) => (
              <OrderRow key={o.id} order={o} priceScale={scaleOf(o.symbol)} fresh={fresh} />
            ))}
          </ul>
        </Suspense>
      )}
    </section>
  );
});
