import { useSelector } from '@xstate/react';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSpotOrders } from '../../../../core/api/spot';
import type { SpotOrderRef } from '../../../../machines/spot/book.machine';
import type { SpotLive } from '../../../../machines/spot/live';
import type { SpotOrder } from '../../../../protocol/spot';
import { OrderFlow } from '../../../app/OrderFlow';
import { Button } from '../../../components/Button';
import { Segmented } from '../../../components/Segmented';
import { LoadingOrFailed } from '../../../components/StateView';
import { usePagedList } from '../../../data/usePagedList';
import { useSpotOrderActor } from '../hooks/useSpotLive';
import { spotKeys } from '../keys';
import { OrderRow } from './OrderRow';

type Tab = 'open' | 'history';

/** The open orders of the pair (live, from the book) with cancel, and the paged history of the pair. */
export function OrderLists({ symbol, live }: { symbol: string; live: SpotLive }): ReactElement {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('open');
  return (
    <section className="spot-orders" aria-label={t('spot.orders.label')}>
      <Segmented
        label={t('spot.orders.label')}
        value={tab}
        onChange={setTab}
        options={[
          { value: 'open', label: t('spot.tabs.open') },
          { value: 'history', label: t('spot.tabs.history') },
        ]}
      />
      {tab === 'open' ? <OpenOrders symbol={symbol} live={live} /> : <History symbol={symbol} />}
    </section>
  );
}

function OpenOrders({ symbol, live }: { symbol: string; live: SpotLive }): ReactElement {
  const { t } = useTranslation();
  const all = useSelector(live.actor, (s) => s.context.open);
  const rows = useSelector(live.actor, (s) => s.context.rows);
  if (all === null) return <LoadingOrFailed failed={false} onRetry={() => {}} />;
  const orders = all.filter((o) => o.symbol === symbol);
  if (orders.length === 0) return <p className="spot-empty">{t('spot.orders.empty')}</p>;
  return (
    <ul className="spot-order-list" data-testid="open-orders">
      {orders.map((o) => {
        const row = rows[o.id];
        return row ? <OpenOrderRow key={o.id} actor={row.ref} order={o} /> : null;
      })}
    </ul>
  );
}

/** An open order, drawn from its own order machine in the book (cancel, then what the server says). */
function OpenOrderRow({ actor, order }: { actor: SpotOrderRef; order: SpotOrder }): ReactElement {
  const { t } = useTranslation();
  const { view, snapshot, send } = useSpotOrderActor(actor);
  const cancel = () => send({ type: 'CANCEL' });
  return (
    <OrderRow
      order={view.order ?? order}
      cancelling={view.busy}
      onCancel={view.cancelEnabled || view.busy ? cancel : undefined}
      error={view.error}
    >
      <OrderFlow drawing="spot-order" snapshot={snapshot} title={t('machineChart.title')} />
    </OrderRow>
  );
}

function History({ symbol }: { symbol: string }): ReactElement {
  const { t } = useTranslation();
  const list = usePagedList(spotKeys.history(symbol), async (beforeId) => {
    const page = await fetchSpotOrders({ list: 'history', symbol, beforeId });
    return page === false ? false : { items: page.orders, next_before_id: page.next_before_id };
  });
  if (list.state !== 'ready') {
    return <LoadingOrFailed failed={list.state === 'error'} onRetry={() => void list.reload()} />;
  }
  if (list.items.length === 0) return <p className="spot-empty">{t('spot.orders.historyEmpty')}</p>;
  return (
    <>
      <ul className="spot-order-list" data-testid="order-history">
        {list.items.map((o) => (
          <OrderRow key={o.id} order={o} />
        ))}
      </ul>
      {list.hasMore ? (
        <Button variant="ghost" block busy={list.loadingMore} onClick={() => void list.loadMore()}>
          {t('spot.orders.more')}
        </Button>
      ) : null}
    </>
  );
}
