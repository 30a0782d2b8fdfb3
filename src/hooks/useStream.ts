import { useEffect, useState } from 'react';
import type { Observable } from 'rxjs';
import { latestPerFrame } from '../../streams/frame';
import type { Freshness } from '../../streams/freshness';

/**
 * The newest value of a stream, at most one re-render per animation frame (DESIGN "Realtime"). `initial` until the
 * first value; the subscription ends with the component, which lets a shared stream stop its topic.
 */
export function useStream<T>(source: Observable<T> | null, initial: T): T {
  const [value, setValue] = useState<T>(initial);
  useEffect(() => {
    if (!source) return;
    const sub = source.pipe(latestPerFrame<T>()).subscribe(setValue);
    return () => sub.unsubscribe();
  }, [source]);
  return value;
}

/**
 * Whether a stream's prices are stale (true until its first sign of life). The first render already says what the
 * stream holds (a page started from the market snapshot is current from its first frame, not "stale" for one).
 */
export function useStale(freshness: Freshness | null): boolean {
  const [stale, setStale] = useState(() => freshness?.isStale() ?? true);
  useEffect(() => {
    if (!freshness) return;
    const sub = freshness.stale$.subscribe(setStale);
    return () => sub.unsubscribe();
  }, [freshness]);
  return stale;
}
