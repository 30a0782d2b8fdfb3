import { useCallback, useEffect, useRef, useState } from 'react';
import type { RealNameInfo } from '../../../protocol/identity';
import { verificationChanges } from '../../../streams/account-events';
import { fetchRealNameInfo } from '../../api/identity';

export interface VerificationInfo {
  info: RealNameInfo | null;
  /** The first load failed (the page offers a retry). */
  failed: boolean;
  reload: () => Promise<void>;
}

/**
 * Both levels' verification state, read on mount and again whenever the server says it changed (the private
 * `account` socket event after an operator's review) or the socket came back (events are not replayed).
 */
export function useVerificationInfo(): VerificationInfo {
  const [info, setInfo] = useState<RealNameInfo | null>(null);
  const [failed, setFailed] = useState(false);
  const alive = useRef(true);

  const load = useCallback(async (quiet: boolean) => {
    const r = await fetchRealNameInfo(quiet ? { loading: false, quiet: true } : undefined);
    if (!alive.current) return;
    if (r === false) {
      if (!quiet) setFailed(true);
      return;
    }
    setFailed(false);
    setInfo(r);
  }, []);

  useEffect(() => {
    alive.current = true;
    void load(false);
    const sub = verificationChanges().subscribe(() => void load(true));
    return () => {
      alive.current = false;
      sub.unsubscribe();
    };
  }, [load]);

  const reload = useCallback(() => load(false), [load]);
  return { info, failed, reload };
}
