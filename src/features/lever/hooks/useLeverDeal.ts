import { useQuery } from '@tanstack/react-query';
import { fetchLeverDeal } from '../../../../core/api/lever';
import type { LeverAccount } from '../../../../protocol/lever';
import { need, PREFETCHED_FRESH_MS } from '../../../data/query';
import { leverKeys } from '../keys';

/** The lever/deal query of one book, shared by the page (useLeverDeal) and the live controller (its worker's feed). */
export const leverDealQuery = (book: LeverAccount) => ({
  queryKey: leverKeys.deal(book),
  queryFn: () => need(fetchLeverDeal(book)),
  staleTime: PREFETCHED_FRESH_MS,
});

/**
 * lever/deal of one book: the instruments with their terms, the contract account's available balance and the cross
 * wallet. Refreshed by every position change (the live book invalidates the lever area); a refresh keeps what is
 * shown until the newer answer arrives.
 */
export function useLeverDeal(book: LeverAccount) {
  return useQuery(leverDealQuery(book));
}
