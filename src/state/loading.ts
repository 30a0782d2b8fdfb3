import { proxy } from 'valtio';

/** Count of calls that show the global loading indicator. */
export const loading = proxy({ pending: 0 });

export function beginLoading(): () => void {
  loading.pending += 1;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    loading.pending = Math.max(0, loading.pending - 1);
  };
}
