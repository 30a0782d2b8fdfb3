import { useSelector } from '@xstate/react';
import { lazy, memo, type ReactElement, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverLive } from '../../../../machines/lever/live';
import type { LeverAccount, LeverInstrument } from '../../../../protocol/lever';
import { Segmented } from '../../../components/Segmented';
import { LoadingOrFailed } from '../../../components/StateView';
import { BookTotalsBar } from './BookTotalsBar';

/** The history (a paged query) loads with its tab: the open lists are what the page shows first. */
const HistoryList = lazy(() => import('./HistoryList'));
/** Pending orders are a tab away too (the positions show first). */
const OrderRow = lazy(() => import('./OrderRow'));
/** The rows load after the page's first paint: they sit below the ticket (and the route is within its budget). */
const PositionRow = lazy(() => import('./PositionRow').then((m) => ({ default: m.PositionRow })));
/** Close-all and its sheet load after the positions. */
const CloseAll = lazy(() => import('./CloseAll'));

type Tab = 'positions' | 'orders' | 'history';

/**
 * The book's open positions (live figures from the worker), its pending orders (status 0) and its history
 * (closed and cancelled, paged), as three tabs. The open lists and each row's machine are the live book's
 * (machines/lever/book.machine.ts): the lists render when the set of open orders and positions or a copy of one
 * changes; a row's figures are written into it once a frame without rendering it (PositionRow's LiveFacts).
 */
export const LeverLists = memo(function LeverLists({
  book,
  live,
  instruments,
  quoteScale,
}: {
  book: LeverAccount;
  live: LeverLive;
  instruments: readonly LeverInstrument[];
  quoteScale: number;
}): ReactElement {
  const { t } = useTranslation();
  const lists = useSelector(live.actor, (s) => s.context.lists);
  const rows = useSelector(live.actor, (s) => s.context.rows);
  const fresh = useSelector(live.actor, (s) => s.context.fresh);
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
            <BookTotalsBar figures={live.figures} />
            <Suspense fallback={null}>
              <CloseAll
                key={book}
                book={book}
                holding={lists.positions.filter((p) => p.phase === 'holding').length}
                stale={!fresh}
              />
            </Suspense>
            <Suspense fallback={<LoadingOrFailed failed={false} onRetry={() => {}} />}>
              <ul className="lever-list" data-testid="positions">
                {lists.positions.map((p) => {
                  const row = rows[p.id];
                  return row ? (
                    <PositionRow
                      key={p.id}
                      actor={row.ref}
                      position={p}
                      figures={live.figures}
                      priceScale={scaleOf(p.symbol)}
                      quoteScale={quoteScale}
                    />
                  ) : null;
                })}
              </ul>
            </Suspense>
          </>
        )
      ) : lists.orders.length === 0 ? (
        <p className="lever-empty">{t('lever.orders.empty')}</p>
      ) : (
        <Suspense fallback={<LoadingOrFailed failed={false} onRetry={() => {}} />}>
          <ul className="lever-list" data-testid="orders">
            {lists.orders.map((o) => {
              const row = rows[o.id];
              return row ? <OrderRow key={o.id} actor={row.ref} order={o} priceScale={scaleOf(o.symbol)} /> : null;
            })}
          </ul>
        </Suspense>
      )}
    </section>
  );
});
