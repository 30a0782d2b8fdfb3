import { type ReactElement, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchC2cOrders } from '../../../../../../core/api/c2c';
import { EmptyState } from '../../../../../components/assets/EmptyState';
import { LoadMore } from '../../../../../components/assets/LoadMore';
import { Page } from '../../../../../components/Page';
import { PullToRefresh } from '../../../../../components/PullToRefresh';
import { Segmented } from '../../../../../components/Segmented';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { usePagedList } from '../../../../../data/usePagedList';
import { useQueryParam } from '../../../../../hooks/hooks';
import { useServerNow } from '../../../../../hooks/useServerNow';
import { C2cLinks } from '../../../components/C2cLinks';
import { OrderRow } from '../../../components/OrderRow';
import { StatusTabs } from '../../../components/StatusTabs';
import { useC2cMerchant } from '../../../hooks/queries';
import { useC2cLive } from '../../../hooks/useC2cLive';
import { c2cKeys } from '../../../keys';
import { belongsTo, mergeOrders, type OrderTab, statusesOf } from '../../../orders';
import '../../../c2c.css';

type Side = 'buyer' | 'merchant';

/**
 * The user's C2C orders (assets/c2c/orderList): as buyer, and for merchants also as merchant (`?side=merchant`), in
 * tabs by status, newest first, paged with "load more" (ctc/order/list); each row live through the `c2c` stream (its
 * newer copies, and orders made meanwhile), its badge turning to "expiring" when its window ends on the server clock.
 * Pull to refresh reloads the first page.
 */
export default function C2cOrderListPage(): ReactElement {
  const { t } = useTranslation();
  const { merchant } = useC2cMerchant();
  const [side, setSide] = useState<Side>(useQueryParam('side') === 'merchant' ? 'merchant' : 'buyer');
  const [tab, setTab] = useState<OrderTab>('all');
  const { stream, orders: live } = useC2cLive(merchant);
  const now = useServerNow();
  const list = usePagedList(c2cKeys.orders(side, String(tab)), async (beforeId) => {
    const page = await fetchC2cOrders({ side, status: statusesOf(tab) }, beforeId);
    return page === false ? false : { items: page.orders, next_before_id: page.next_before_id };
  });
  const rows = useMemo(
    () => mergeOrders(list.items, live, !list.hasMore, belongsTo(side, tab)),
    [list.items, live, list.hasMore, side, tab],
  );

  return (
    <Page title={t('c2c.orders.title')} className="c2c-page">
      <PullToRefresh onRefresh={() => Promise.all([list.reload(), stream.refresh()])}>
        <div className="c2c-stack">
          {merchant || side === 'merchant' ? (
            <Segmented<Side>
              label={t('c2c.orders.side')}
              value={side}
              options={[
                { value: 'buyer', label: t('c2c.orders.asBuyer') },
                { value: 'merchant', label: t('c2c.orders.asMerchant') },
              ]}
              onChange={setSide}
            />
          ) : null}
          <StatusTabs value={tab} onChange={setTab} />
          {list.state !== 'ready' ? (
            <LoadingOrFailed failed={list.state === 'error'} onRetry={() => void list.reload()} />
          ) : rows.length === 0 ? (
            <EmptyState icon="document" text={t(side === 'buyer' ? 'c2c.orders.empty' : 'c2c.orders.emptyMerchant')} />
          ) : (
            <>
              <ul className="c2c-cards" data-testid="c2c-orders">
                {rows.map((o) => (
                  <OrderRow key={o.id} order={o} now={now} />
                ))}
              </ul>
              <LoadMore hasMore={list.hasMore} busy={list.loadingMore} onMore={() => void list.loadMore()} />
            </>
          )}
          <C2cLinks show={merchant ? ['market', 'merchant'] : ['market']} />
        </div>
      </PullToRefresh>
    </Page>
  );
}
