import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSpotOrders } from '../../../../core/api/spot';
import type { SpotOrder } from '../../../../protocol/spot';
import { OrderFlow } from '../../../app/OrderFlow';
import { Button } from '../../../components/Button';
import { Segmented } from '../../../components/Segmented';
import { LoadingOrFailed } from '../../../components/StateView';
import { usePagedList } from '../../../data/usePagedList';
import { useOrderRow } from '../hooks/useOrderRow';
import { spotKeys } from '../keys';
import { OrderRow } from './OrderRow';

type Tab = 'open' | 'history';

/** The open orders (live, from the merged orders stream) with cancel, and the paged history of the pair. */
export function OrderLists({ symbol, open }: { symbol: string; open: SpotOrder[] | null }): ReactElement {
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
      {tab === 'open' ? <OpenOrders orders={open} /> : <History symbol={symbol} />}
    </section>
  );
}

function OpenOrders({ orders }: { orders: SpotOrder[] | null }): ReactElement {
  const { t } = useTranslation();
  if (orders === null) return <LoadingOrFailed failed={false} onRetry={() => {}} />;
  if (orders.length === 0) return <p className="spot-empty">{t('spot.orders.empty')}</p>;
  return (
    <ul className="spot-order-list" data-testid="open-orders">
      {orders.map((o) => (
        <OpenOrderRow key={o.id} order={o} />
      ))}
    </ul>
  );
}

/** An open order, driven by its own order machine (cancel, then what the server says). */
function OpenOrderRow({ order }: { order: SpotOrder }): ReactElement {
  const { t } = useTranslation();
  const { view, snapshot, cancel } = useOrderRow(order);
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
