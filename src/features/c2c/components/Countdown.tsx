import type { ReactElement } from 'react';
import { clockOf } from '../format';

/** Time left of the payment window on the server clock, as mm:ss (not a live region: it ticks every second). */
export function Countdown({ ms }: { ms: number }): ReactElement {
  return (
    <span className="c2c-countdown" data-testid="c2c-countdown">
      {clockOf(ms)}
    </span>
  );
}
