import { useEffect, useState } from 'react';
import { serverNow } from '../../../../core/clock';

/**
 * Server time now (core/clock.ts), redrawn every `everyMs` while `active`: countdowns and the "is it due?" of lists
 * read it, never the device clock, so a device that is minutes off still shows the server's times.
 */
export function useServerNow(active = true, everyMs = 1_000): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(serverNow()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}
