import { fetchSpotConfig } from '../../../core/api/spot';
import { need, PREFETCHED_FRESH_MS, queryClient } from '../../data/query';
import { spotKeys } from './keys';

/** spot/config: the pairs and their terms, which the Spot page waits for before it draws (its header among it). */
export const spotConfigQuery = {
  queryKey: spotKeys.config,
  queryFn: () => need(fetchSpotConfig()),
  staleTime: PREFETCHED_FRESH_MS,
};

/** Asked for while the page's code loads (feature.ts `prefetch`). */
export const prefetchConfig = (): Promise<void> => queryClient.prefetchQuery(spotConfigQuery);
