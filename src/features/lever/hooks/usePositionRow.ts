import { useMachine } from '@xstate/react';
import { useEffect } from 'react';
import { newRequestId } from '../../../../core/ids';
import { leverOrderView } from '../../../../machines/lever/order.machine';
import type { LeverPosition } from '../../../../protocol/lever';
import { traceActor } from '../../../app/actor-traces';
import { leverMachine } from './leverMachine';

/**
 * One open order's or position's machine: the ticket's lifecycle, started in the position's state. Its actions
 * (cancel, close, TP/SL, add margin) run through it, every newer copy the list holds (the merged positions stream)
 * is fed to it, and the page's stale gate switches its actions off while prices are stale.
 */
export function usePositionRow(position: LeverPosition, fresh: boolean) {
  const [snapshot, send] = useMachine(leverMachine, {
    input: { makeId: newRequestId, position },
    inspect: traceActor('lever-order', (c: { position: { id: number } | null }) => c.position?.id),
  });
  useEffect(() => {
    send({ type: 'POSITION', position });
  }, [position, send]);
  useEffect(() => {
    send({ type: fresh ? 'PRICES_FRESH' : 'PRICES_STALE' });
  }, [fresh, send]);
  return { view: leverOrderView(snapshot), snapshot, send };
}
