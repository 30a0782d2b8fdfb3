import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Data a page loads from the server on mount: null while loading, `failed` after a failed call (the client has
 * already told the user why), `reload` to try again or refresh after a change.
 */
export function useRemote<T>(load: () => Promise<T | false>) {
  const [data, setData] = useState<T | null>(null);
  const [failed, setFailed] = useState(false);
  const loader = useRef(load);
  loader.current = load;
  const alive = useRef(true);

  const reload = useCallback(async () => {
    setFailed(false);
    const r = await loader.current();
    if (!alive.current) return;
    if (r === false) setFailed(true);
    else setData(r);
  }, []);

  useEffect(() => {
    alive.current = true;
    void reload();
    return () => {
      alive.current = false;
    };
  }, [reload]);

  return { data, failed, reload, setData };
}
