import { type RefObject, useEffect, useState } from 'react';

/** Rows this far outside the viewport already count as on screen, so a scroll never shows stale figures. */
const MARGIN = '300px 0px';

/**
 * Whether an element is on (or near) the screen. The lever list lets rows out of sight skip the worker's figures:
 * a hundred positions re-rendering every frame cost most of the frame, while only a few rows can be seen at once.
 * Where IntersectionObserver is missing (tests without a DOM), everything counts as on screen.
 */
export function useOnScreen(ref: RefObject<Element | null>): boolean {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        const last = entries[entries.length - 1];
        if (last) setVisible(last.isIntersecting);
      },
      { rootMargin: MARGIN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return visible;
}
