import { fetchOptionTerms } from '../../../core/api/options';
import { need, PREFETCHED_FRESH_MS, queryClient } from '../../data/query';
import { optionKeys } from './keys';

/** The option terms (periods, stakes, instruments), which the option page waits for before it draws. */
export const optionTermsQuery = {
  queryKey: optionKeys.terms,
  queryFn: () => need(fetchOptionTerms()),
  staleTime: PREFETCHED_FRESH_MS,
};

/** Asked for while the page's code loads (feature.ts `prefetch`). */
export const prefetchTerms = (): Promise<void> => queryClient.prefetchQuery(optionTermsQuery);
