import { type ReactElement, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchMyIeoOrders } from '../../../../../../core/api/ieo';
import { EmptyState } from '../../../../../components/assets/EmptyState';
import { LoadMore } from '../../../../../components/assets/LoadMore';
import { Page } from '../../../../../components/Page';
import { PullToRefresh } from '../../../../../components/PullToRefresh';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { usePagedList } from '../../../../../data/usePagedList';
import { useServerNow } from '../../../../../hooks/useServerNow';
import { IeoLinks } from '../../../components/IeoLinks';
import { OrderRow } from '../../../components/OrderRow';
import { useIeoLive } from '../../../hooks/useIeoLive';
import { ieoKeys } from '../../../keys';
import { mergeOrders } from '../../../orders';
import '../../../ieo.css';

/**
 * The user's subscriptions (assets/ieo/orderList): newest first, paged with "load more" (ieo/myApply), each row live
 * (the `ieo` stream's newer copies, and its own machine for "processing" when a step's time passes). Pull to refresh
 * reloads the first page.
 */
export default function IeoOrderListPage(): ReactElement {
  const { t } = useTranslation();
  const { stream, orders: live } = useIeoLive();
  const now = useServerNow();
  const list = usePagedList(ieoKeys.orders, async (beforeId) => {
    const page = await fetchMyIeoOrders(beforeId);
    return page === false ? false : { items: page.orders, next_before_id: page.next_before_id };
  });
  const rows = useMemo(() => mergeOrders(list.items, live, !list.hasMore), [list.items, live, list.hasMore]);

  return (
    <Page title={t('ieo.orders.title')} className="ieo-page">
      <PullToRefresh onRefresh={() => Promise.all([list.reload(), stream.refresh()])}>
        <div className="ieo-stack">
          {list.state !== 'ready' ? (
            <LoadingOrFailed failed={list.state === 'error'} onRetry={() => void list.reload()} />
          ) : rows.length === 0 ? (
            <EmptyState icon="document" text={t('ieo.assets.empty')} />
          ) : (
            <>
              <ul className="ieo-cards" data-testid="ieo-orders">
                {rows.map((o) => (
                  <OrderRow key={o.id} order={o} stream={stream} now={now} />
                ))}
              </ul>
              <LoadMore hasMore={list.hasMore} busy={list.loadingMore} onMore={() => void list.loadMore()} />
            </>
          )}
          <IeoLinks show={['overview', 'projects']} />
        </div>
      </PullToRefresh>
    </Page>
  );
}
