import { useEffect, useRef } from 'react';
import { filter, map, merge, pairwise } from 'rxjs';
import { DEPOSIT_EVENT, fundingEventData, WITHDRAWAL_EVENT } from '../../../protocol/funding';
import { accountEvents } from '../../../streams/account-events';
import { realtime } from '../../../streams/socket';

export type FundingChange = { kind: 'deposit' | 'withdrawal'; id: number } | { kind: 'resync' };

/**
 * Calls `onChange` when one of the user's deposits or withdrawals changes state (the private `account` events), and
 * after the socket comes back (events are not replayed, so read again).
 */
export function useFundingEvents(onChange: (change: FundingChange) => void): void {
  const handler = useRef(onChange);
  handler.current = onChange;
  useEffect(() => {
    const source = realtime();
    const changed = accountEvents(source).pipe(
      filter((e) => e.kind === DEPOSIT_EVENT || e.kind === WITHDRAWAL_EVENT),
      map((e) => ({ kind: e.kind, parsed: fundingEventData.safeParse(e.data) })),
      filter((e) => e.parsed.success),
      map((e): FundingChange => ({ kind: e.kind as 'deposit' | 'withdrawal', id: e.parsed.data?.id ?? 0 })),
    );
    const resync = source.state$.pipe(
      pairwise(),
      filter(([before, now]) => now === 'connected' && before !== 'connected'),
      map((): FundingChange => ({ kind: 'resync' })),
    );
    const sub = merge(changed, resync).subscribe((c) => handler.current(c));
    return () => sub.unsubscribe();
  }, []);
}
