import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSnapshot } from 'valtio';
import { hasFundPassword } from '../../core/api/account';
import { session, setUser } from '../state/session';
import { keys } from './keys';

/**
 * Whether the user has set a fund password: the stored user's flag at once (null when unknown), then the server's
 * answer, which also refreshes the stored flag (it may have been set on another device).
 */
export function useHasFundPassword(): boolean | null {
  const snap = useSnapshot(session);
  const q = useQuery({
    queryKey: keys.fundPassword,
    queryFn: async () => {
      const r = await hasFundPassword();
      if (r === null) throw new Error('has_password failed');
      if (session.user && session.user.has_fund_password !== r) setUser({ ...session.user, has_fund_password: r });
      return r;
    },
  });
  return q.data ?? snap.user?.has_fund_password ?? null;
}

/** Whether a fund password is set, false until known (address creation and the address list's note). */
export function useFundPasswordSet(): boolean {
  return useHasFundPassword() ?? false;
}

/** After the user set a fund password: the stored user and every view say so at once. */
export function useFundPasswordWasSet(): () => void {
  const client = useQueryClient();
  return useCallback(() => {
    if (session.user) setUser({ ...session.user, has_fund_password: true });
    client.setQueryData(keys.fundPassword, true);
  }, [client]);
}
