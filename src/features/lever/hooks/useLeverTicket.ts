import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect } from 'react';
import { newRequestId } from '../../../../core/ids';
import { type LeverOrderView, leverOrderView } from '../../../../machines/lever/order.machine';
import type { PositionStream } from '../../../../streams/lever/positions';
import { keys } from '../../../data/keys';
import { leverKeys } from '../keys';
import { leverMachine } from './leverMachine';

/**
 * The ticket's order machine, fed by the app: the real calls, the user's position updates (the merged `positions`
 * stream, which also tells the ticket its order by request id) and the price gate (stale prices stop new orders).
 * Every position change refreshes the contract account (available, cross wallet) and the history.
 */
export function useLeverTicket(stream: PositionStream, fresh: boolean) {
  const client = useQueryClient();
  const [snapshot, send] = useMachine(leverMachine, { input: { makeId: newRequestId } });

  useEffect(() => {
    send({ type: fresh ? 'PRICES_FRESH' : 'PRICES_STALE' });
  }, [fresh, send]);

  useEffect(() => {
    const sub = stream.changes$.subscribe((change) => {
      if (change.kind === 'position') send({ type: 'POSITION', position: change.position });
      // Margins held and released, fees and P&L move the contract account; a closed one belongs to the history.
      void client.invalidateQueries({ queryKey: leverKeys.all });
      void client.invalidateQueries({ queryKey: keys.assetLists });
    });
    return () => sub.unsubscribe();
  }, [stream, send, client]);

  const view: LeverOrderView = leverOrderView(snapshot);
  return { view, send };
}
