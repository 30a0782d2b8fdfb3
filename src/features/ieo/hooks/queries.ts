import { useQuery } from '@tanstack/react-query';
import { fetchIeoDetail, fetchIeoOrder } from '../../../../core/api/ieo';
import { fetchAssetDetail } from '../../../../core/api/wallet';
import { need } from '../../../data/query';
import { ieoKeys } from '../keys';

/** A project with the caller's own subscription to it when logged in (null id: nothing to load). */
export const useIeoDetail = (id: number | null) =>
  useQuery({
    queryKey: ieoKeys.detail(id ?? 0),
    queryFn: () => need(fetchIeoDetail(id ?? 0)),
    enabled: id !== null,
  });

/** One of the caller's subscriptions as the server has it now: the page's query, and the copies its machine follows. */
export const ieoOrderQuery = (id: number) => ({ queryKey: ieoKeys.order(id), queryFn: () => need(fetchIeoOrder(id)) });

/** One of the caller's subscriptions as the server has it now (null id: nothing to load). */
export const useIeoOrder = (id: number | null) => useQuery({ ...ieoOrderQuery(id ?? 0), enabled: id !== null });

/** The USDT available in the coin (spot) account, which an allotment is paid from. */
export const usePayBalance = (enabled: boolean) =>
  useQuery({
    queryKey: ieoKeys.payBalance,
    queryFn: async () => {
      const detail = await need(fetchAssetDetail('USDT', 'coin'));
      return detail.accounts.find((a) => a.type === 'coin')?.available ?? '0';
    },
    enabled,
  });

export { recordId } from '../../../hooks/hooks';
