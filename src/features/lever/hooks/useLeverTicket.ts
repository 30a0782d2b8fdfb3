import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { newRequestId } from '../../../../core/ids';
import { type LeverOrderView, leverOrderView } from '../../../../machines/lever/order.machine';
import type { LeverPosition } from '../../../../protocol/lever';
import type { PositionStream } from '../../../../streams/lever/positions';
import { traceActor } from '../../../app/actor-traces';
import { keys } from '../../../data/keys';
import { toast } from '../../../state/toasts';
import { leverKeys } from '../keys';
import { leverMachine } from './leverMachine';

/**
 * The ticket's order machine, fed by the app: the real calls, the user's position updates (the merged `positions`
 * stream, which also tells the ticket its order by request id) and the price gate (stale prices stop new orders).
 * Every position change refreshes the contract account (available, cross wallet) and the history. A position that
 * closes (by its owner, a trigger or liquidation) leaves the open list at once, so the close is also said in a toast:
 * the shell's toasts are a polite live region, and the result of an order is announced, not only drawn.
 */
export function useLeverTicket(stream: PositionStream, fresh: boolean) {
  const client = useQueryClient();
  const { t } = useTranslation();
  const [snapshot, send] = useMachine(leverMachine, {
    input: { makeId: newRequestId },
    inspect: traceActor('lever-order', (c: { position: { id: number } | null }) => c.position?.id),
  });

  useEffect(() => {
    send({ type: fresh ? 'PRICES_FRESH' : 'PRICES_STALE' });
  }, [fresh, send]);

  useEffect(() => {
    const sub = stream.changes$.subscribe((change) => {
      if (change.kind === 'position') {
        send({ type: 'POSITION', position: change.position });
        const news = closeNews(change.position, t);
        if (news) toast(news, 'info');
      }
      // Margins held and released, fees and P&L move the contract account; a closed one belongs to the history.
      void client.invalidateQueries({ queryKey: leverKeys.all });
      void client.invalidateQueries({ queryKey: keys.assetLists });
    });
    return () => sub.unsubscribe();
  }, [stream, send, client, t]);

  const view: LeverOrderView = leverOrderView(snapshot);
  return { view, send };
}

/** What a position's close says (which position, and why it closed); null for any other change. */
export function closeNews(position: LeverPosition, t: TFunction): string | null {
  if (position.phase !== 'closed' || !position.close_reason) return null;
  return t('lever.row.closedNews', { no: position.order_no, reason: t(`lever.closeReason.${position.close_reason}`) });
}
