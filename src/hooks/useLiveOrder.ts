import { useEffect, useRef } from 'react';
import type { Observable } from 'rxjs';
import { serverClock } from '../../core/clock';

/** A change of the server-time offset smaller than this is noise, not a clock step worth re-judging deadlines for. */
const CLOCK_STEP_MS = 250;

/**
 * What feeds an order's machine on its page (IEO subscription, C2C order): the copy the page loaded whenever it
 * changes, every newer copy from the order's stream, and a step of the server clock's offset (a countdown's deadline
 * is judged on server time, so a corrected clock must reach the machine).
 */
export function useLiveOrder<O extends { id: number }>(
  order: O,
  stream: { order$(id: number): Observable<O> } | null | undefined,
  onOrder: (order: O) => void,
  onClockStep: (offset: number) => void,
): void {
  useEffect(() => {
    onOrder(order);
  }, [order, onOrder]);

  useEffect(() => {
    if (!stream) return;
    const sub = stream.order$(order.id).subscribe(onOrder);
    return () => sub.unsubscribe();
  }, [stream, order.id, onOrder]);

  const sentOffset = useRef(serverClock.offset());
  useEffect(
    () =>
      serverClock.subscribe((offset) => {
        if (Math.abs(offset - sentOffset.current) < CLOCK_STEP_MS) return;
        sentOffset.current = offset;
        onClockStep(offset);
      }),
    [onClockStep],
  );
}
