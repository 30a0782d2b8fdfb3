import { useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import { fetchC2cAd, fetchC2cMarkets, fetchC2cMerchant, fetchC2cOrder, fetchOwnC2cAds } from '../../../../core/api/c2c';
import { need } from '../../../data/query';
import { isLoggedIn, session } from '../../../state/session';
import { c2cKeys } from '../keys';

/** The coins and fiat currencies that have open ads. */
export const useC2cMarkets = () => useQuery({ queryKey: c2cKeys.markets, queryFn: () => need(fetchC2cMarkets()) });

/** One ad (null id: nothing to load). */
export const useC2cAd = (id: number | null) =>
  useQuery({ queryKey: c2cKeys.ad(id ?? 0), queryFn: () => need(fetchC2cAd(id ?? 0)), enabled: id !== null });

/** One of the caller's orders as the server has it now: the page's query, and the copies its machine follows. */
export const c2cOrderQuery = (id: number) => ({ queryKey: c2cKeys.order(id), queryFn: () => need(fetchC2cOrder(id)) });

/** One of the caller's orders as the server has it now (null id: nothing to load). */
export const useC2cOrder = (id: number | null) => useQuery({ ...c2cOrderQuery(id ?? 0), enabled: id !== null });

/** Whether the user is a merchant: asked only with a session (a guest is none); quiet, a failure means "not known". */
export function useC2cMerchant() {
  const loggedIn = isLoggedIn(useSnapshot(session));
  const q = useQuery({
    queryKey: c2cKeys.merchant,
    queryFn: () => need(fetchC2cMerchant({ quiet: true, loading: false })),
    enabled: loggedIn,
  });
  return { loggedIn, merchant: loggedIn && q.data?.merchant === true, nickname: q.data?.nickname ?? null, query: q };
}

/** The merchant's own ads with their payment details. */
export const useOwnC2cAds = (enabled = true) =>
  useQuery({ queryKey: c2cKeys.ownAds, queryFn: () => need(fetchOwnC2cAds()), enabled });

export { recordId } from '../../../hooks/hooks';
