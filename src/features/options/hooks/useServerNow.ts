import { useEffect, useState } from 'react';
import { serverNow } from '../../../../core/clock';

/** How often a countdown redraws: four times a second keeps the whole seconds on time without busy rendering. */
const REDRAW_MS = 250;

/**
 * Server time now (core/clock.ts), redrawn while `active`: countdowns read it, never the device clock, so a device
 * that is minutes off still shows the time left on the server's clock.
 */
export function useServerNow(active = true): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(serverNow()), REDRAW_MS);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}
