import type { OptionAccount } from '../../../protocol/options';

/** Query keys of the options feature (one area, so a contract change can invalidate all of it by prefix). */
export const optionKeys = {
  all: ['options'] as const,
  terms: ['options', 'terms'] as const,
  practice: ['options', 'practice'] as const,
  settled: (account: OptionAccount) => ['options', 'settled', account] as const,
  contract: (id: number) => ['options', 'contract', id] as const,
};
