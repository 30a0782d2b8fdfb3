import { fetchOptionTerms } from '../../../core/api/options';
import { need, queryClient } from '../../data/query';
import { optionKeys } from './keys';

/** The option terms (periods, stakes, instruments), which the option page waits for before it draws. */
export const optionTermsQuery = { queryKey: optionKeys.terms, queryFn: () => need(fetchOptionTerms()) };

/** Asked for while the page's code loads (feature.ts `prefetch`). */
export const prefetchTerms = (): Promise<void> => queryClient.prefetchQuery(optionTermsQuery);
