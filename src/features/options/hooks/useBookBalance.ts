import { useQuery } from '@tanstack/react-query';
import { fetchPracticeBalance } from '../../../../core/api/options';
import { fetchAssets } from '../../../../core/api/wallet';
import type { OptionAccount } from '../../../../protocol/options';
import { keys } from '../../../data/keys';
import { need } from '../../../data/query';
import { optionKeys } from '../keys';

export interface BookBalance {
  /** Available in the chosen book's option account, exact decimal text; null while loading. */
  available: string | null;
  currency: string;
  failed: boolean;
  reload: () => void;
}

/**
 * The available balance of the chosen book: the real option account from wallet/list, or the simulator's practice
 * funds from microtrade/simulator (granted on first use). Both are refreshed by every contract change.
 */
export function useBookBalance(book: OptionAccount, currency: string): BookBalance {
  const real = useQuery({
    queryKey: keys.assets('option'),
    queryFn: () => need(fetchAssets('option')),
    enabled: book === 'real',
  });
  const practice = useQuery({
    queryKey: optionKeys.practice,
    queryFn: () => need(fetchPracticeBalance()),
    enabled: book === 'simulator',
  });
  if (book === 'simulator') {
    return {
      available: practice.data?.balance ?? null,
      currency: practice.data?.currency ?? currency,
      failed: practice.isError && !practice.isFetching,
      reload: () => void practice.refetch(),
    };
  }
  const rows = real.data?.accounts.find((a) => a.type === 'option')?.rows;
  // No row yet: the account has never held this currency, so nothing is available.
  const available = rows ? (rows.find((r) => r.currency === currency)?.available ?? '0') : null;
  return { available, currency, failed: real.isError && !real.isFetching, reload: () => void real.refetch() };
}
