import type { LeverAccount } from '../../../protocol/lever';
import { queryClient } from '../../data/query';
import { leverDealQuery } from './hooks/useLeverDeal';

/** The book's lever/deal, which the page waits for before it draws the ticker (feature.ts `prefetch`). */
export const prefetchDeal = (book: LeverAccount): Promise<void> => queryClient.prefetchQuery(leverDealQuery(book));
