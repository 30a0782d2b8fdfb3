import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { fetchRealNameInfo } from '../../../../core/api/identity';
import type { RealNameInfo } from '../../../../protocol/identity';
import { keys } from '../../../data/keys';
import { loadFailed, need } from '../../../data/query';

export interface VerificationInfo {
  info: RealNameInfo | null;
  /** The first load failed (the page offers a retry). */
  failed: boolean;
  reload: () => Promise<void>;
}

/**
 * Both levels' verification state. It is read again whenever the server says it changed (the private `account`
 * socket event after an operator's review) or the socket came back (events are not replayed): the account events
 * invalidate it (src/data/account-events.ts). Those refreshes are quiet (no loading bar, no toast): the state shown
 * stays until a newer one arrives.
 */
export function useVerificationInfo(): VerificationInfo {
  const client = useQueryClient();
  /** A reload the user asked for (retry, after a submission) is not quiet. */
  const asked = useRef(false);
  const q = useQuery({
    queryKey: keys.verification,
    queryFn: () => {
      const quiet = !asked.current && client.getQueryData(keys.verification) !== undefined;
      return need(fetchRealNameInfo(quiet ? { loading: false, quiet: true } : undefined));
    },
  });
  const { refetch } = q;
  const reload = useCallback(async () => {
    asked.current = true;
    try {
      await refetch();
    } finally {
      asked.current = false;
    }
  }, [refetch]);
  return { info: q.data ?? null, failed: loadFailed(q), reload };
}
