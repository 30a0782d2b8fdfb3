import { type RefObject, useEffect, useState } from 'react';

/** screen.orientation's lock, which TypeScript's DOM types no longer list; many browsers refuse it or lack it. */
interface LockableOrientation {
  lock?: (orientation: 'landscape') => Promise<void>;
}

/**
 * Puts `target` in full screen and takes it out again: the Fullscreen API where the browser has it for any element,
 * with landscape locked when the browser allows (a refusal is fine: the chart fits either way). `on` also lays the
 * box over the whole viewport (CSS), which is all there is where the API is missing (Safari on iPhone).
 */
export function useFullScreen(target: RefObject<HTMLElement | null>): { on: boolean; toggle: () => void } {
  const [on, setOn] = useState(false);

  useEffect(() => {
    if (!on) return;
    // The browser's own way out (Escape, the back gesture) ends its full screen: follow it.
    const changed = () => {
      if (!document.fullscreenElement) setOn(false);
    };
    document.addEventListener('fullscreenchange', changed);
    return () => {
      document.removeEventListener('fullscreenchange', changed);
      // Leaving full screen, or the page, leaves the browser's too.
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    };
  }, [on]);

  const enter = () => {
    const el = target.current;
    setOn(true);
    el?.requestFullscreen?.()
      .then(() => (screen.orientation as LockableOrientation | undefined)?.lock?.('landscape'))
      .catch(() => undefined);
  };
  return { on, toggle: on ? () => setOn(false) : enter };
}
