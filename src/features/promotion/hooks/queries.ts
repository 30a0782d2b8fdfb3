import { type InfiniteData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  fetchInviteInfo,
  fetchInviteLeaderboard,
  fetchMyInvitees,
  fetchMyRebates,
  fetchPoster,
  fetchShareInfo,
} from '../../../../core/api/referral';
import type { MyAccountReturn } from '../../../../protocol/referral';
import { need } from '../../../data/query';
import { usePagedList } from '../../../data/usePagedList';
import { promotionKeys } from '../keys';

/** The caller's invite code and link, counts, share in force and partner standing. */
export const useInviteInfo = () => useQuery({ queryKey: promotionKeys.info, queryFn: () => need(fetchInviteInfo()) });

/** What the poster shows (code, link path, the caller's masked name). */
export const usePoster = () => useQuery({ queryKey: promotionKeys.poster, queryFn: () => need(fetchPoster()) });

/** The code and link to share; asked only where the browser can share. Quiet: without it there is no Share button. */
export const useShareInfo = (enabled: boolean) =>
  useQuery({
    queryKey: promotionKeys.share,
    queryFn: () => need(fetchShareInfo({ quiet: true, loading: false })),
    enabled,
  });

/** The top 10 by verified invitees. */
export const useLeaderboard = () =>
  useQuery({ queryKey: promotionKeys.leaderboard, queryFn: () => need(fetchInviteLeaderboard()) });

/** The caller's invitees, newest first, paged. */
export const useInvitees = () => usePagedList(promotionKeys.invitees, (beforeId) => fetchMyInvitees(beforeId));

/**
 * The rebates received, newest first, paged, with the all-time totals per currency. Every page carries the totals;
 * the first page's are the freshest (a refresh starts over from it). Reading the cache in render is current: the
 * paged list re-renders this hook whenever the query changes.
 */
export function useRebates() {
  const client = useQueryClient();
  const list = usePagedList(promotionKeys.rebates, (beforeId) => fetchMyRebates(beforeId));
  const cached = client.getQueryData<InfiniteData<MyAccountReturn, number | null>>(promotionKeys.rebates);
  return { list, totals: cached?.pages[0]?.totals ?? null };
}
