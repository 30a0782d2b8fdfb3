import { proxy } from 'valtio';

/** Count of calls that show the global loading indicator (the API client's loadingBegin/loadingEnd events). */
export const loading = proxy({ pending: 0 });

export function loadingBegan(): void {
  loading.pending += 1;
}

export function loadingEnded(): void {
  loading.pending = Math.max(0, loading.pending - 1);
}
