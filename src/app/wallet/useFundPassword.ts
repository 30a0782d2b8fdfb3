import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { hasFundPassword } from '../../api/account';
import { session, setUser } from '../../state/session';

/**
 * Whether the user has set a fund password: the stored user's flag at once, then the server's answer (which also
 * refreshes the stored flag, e.g. after it was set on another device).
 */
export function useFundPasswordSet(): boolean {
  const snap = useSnapshot(session);
  const [isSet, setIsSet] = useState(snap.user?.has_fund_password ?? false);
  useEffect(() => {
    let alive = true;
    void hasFundPassword().then((r) => {
      if (!alive || r === null) return;
      setIsSet(r);
      if (session.user && session.user.has_fund_password !== r) setUser({ ...session.user, has_fund_password: r });
    });
    return () => {
      alive = false;
    };
  }, []);
  return isSet;
}
