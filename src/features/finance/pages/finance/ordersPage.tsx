import { useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchFinanceOrders } from '../../../../../core/api/finance';
import {
  FINANCE_ORDER_STATES,
  type FinanceFamily,
  type FinanceOrder,
  type FinanceOrderState,
} from '../../../../../protocol/finance';
import { EmptyState } from '../../../../components/assets/EmptyState';
import { LoadMore } from '../../../../components/assets/LoadMore';
import { Page } from '../../../../components/Page';
import { PullToRefresh } from '../../../../components/PullToRefresh';
import { Segmented } from '../../../../components/Segmented';
import { LoadingOrFailed } from '../../../../components/StateView';
import { keys } from '../../../../data/keys';
import { usePagedList } from '../../../../data/usePagedList';
import { useQueryParam } from '../../../../hooks/hooks';
import { toast } from '../../../../state/toasts';
import { FamilySwitch, isFamily } from '../../components/FamilySwitch';
import { OrderCard } from '../../components/OrderCard';
import { RedeemDialog } from '../../components/RedeemDialog';
import { financeKeys } from '../../keys';
import '../../finance.css';

const isState = (v: string | undefined): v is FinanceOrderState =>
  (FINANCE_ORDER_STATES as readonly string[]).includes(v ?? '');

/**
 * The user's orders (finance/ordersPage): one family at a time (trust by default), in SPEC 4's tabs hosting,
 * completed and redeemed, newest first with "load more". A running order can be redeemed early after its penalty is
 * shown. Pull to refresh reloads the tab.
 */
export default function FinanceOrdersPage(): ReactElement {
  const { t } = useTranslation();
  const client = useQueryClient();
  const rawFamily = useQueryParam('family');
  const rawState = useQueryParam('state');
  const [family, setFamily] = useState<FinanceFamily>(isFamily(rawFamily) ? rawFamily : 'trust');
  const [state, setState] = useState<FinanceOrderState>(isState(rawState) ? rawState : 'hosting');
  const [redeeming, setRedeeming] = useState<FinanceOrder | null>(null);
  const list = usePagedList(financeKeys.orders(family, state), async (beforeId) => {
    const page = await fetchFinanceOrders({ family, state, beforeId });
    return page === false ? false : { items: page.orders, next_before_id: page.next_before_id };
  });

  const closeDialog = useCallback(() => setRedeeming(null), []);
  const redeemed = useCallback(() => {
    setRedeeming(null);
    toast(t('finance.orders.redeemed'), 'success');
    // The order moved tabs; the report, the products' capacity and the trust balance changed too.
    void client.invalidateQueries({ queryKey: financeKeys.all });
    void client.invalidateQueries({ queryKey: keys.assetLists });
  }, [client, t]);

  return (
    <Page title={t('finance.orders.title')} className="finance-page">
      <PullToRefresh onRefresh={list.reload}>
        <div className="finance-stack">
          <FamilySwitch value={family} onChange={setFamily} />
          <Segmented
            label={t('finance.orders.statesLabel')}
            value={state}
            options={FINANCE_ORDER_STATES.map((s) => ({ value: s, label: t(`finance.orders.states.${s}`) }))}
            onChange={setState}
          />
          {list.state !== 'ready' ? (
            <LoadingOrFailed failed={list.state === 'error'} onRetry={() => void list.reload()} />
          ) : list.items.length === 0 ? (
            <EmptyState icon="document" text={t('finance.orders.empty')} />
          ) : (
            <>
              <ul className="finance-cards">
                {list.items.map((o) => (
                  <OrderCard key={o.id} order={o} onRedeem={() => setRedeeming(o)} />
                ))}
              </ul>
              <LoadMore hasMore={list.hasMore} busy={list.loadingMore} onMore={() => void list.loadMore()} />
            </>
          )}
        </div>
      </PullToRefresh>
      {redeeming ? <RedeemDialog order={redeeming} onClose={closeDialog} onRedeemed={redeemed} /> : null}
    </Page>
  );
}
