import type { LeverAccount } from '../../../protocol/lever';

/** Query keys of the lever feature (one area, so a position change can invalidate all of it by prefix). */
export const leverKeys = {
  all: ['lever'] as const,
  deal: (account: LeverAccount) => ['lever', 'deal', account] as const,
  history: (account: LeverAccount) => ['lever', 'history', account] as const,
};
