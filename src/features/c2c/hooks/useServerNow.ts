import { useEffect, useState } from 'react';
import { serverNow } from '../../../../core/clock';

/**
 * Server time now (core/clock.ts), redrawn every `everyMs` while `active`: the payment window's countdown reads it,
 * never the device clock, so a device that is minutes off still shows the server's window.
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
