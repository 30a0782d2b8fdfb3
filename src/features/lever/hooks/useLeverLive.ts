import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { map } from 'rxjs';
import { newRequestId } from '../../../../core/ids';
import { type LeverLive, startLeverLive } from '../../../../machines/lever/live';
import type { LeverAccount, LeverPosition } from '../../../../protocol/lever';
import { tradingGate } from '../../../../streams/freshness';
import { leverMarks, leverPositions, type PositionChange } from '../../../../streams/lever/positions';
import { coinQuotes } from '../../../../streams/market';
import { realtime } from '../../../../streams/socket';
import { traceActor } from '../../../app/actor-traces';
import { keys } from '../../../data/keys';
import { queryData$ } from '../../../data/query-stream';
import { i18n } from '../../../lib/i18n';
import { toast } from '../../../state/toasts';
import { leverKeys } from '../keys';
import { leverMachine } from './leverMachine';
import { leverDealQuery } from './useLeverDeal';

/**
 * The book's live controller (machines/lever/live.ts) with the app's streams, worker and calls, started while the
 * page shows the book. Null before the first effect; the page draws its loading state until then.
 */
export function useLeverLive(book: LeverAccount): LeverLive | null {
  const client = useQueryClient();
  const [live, setLive] = useState<LeverLive | null>(null);
  useEffect(() => {
    const started = startLeverLive(book, {
      positions: leverPositions(),
      deal$: queryData$(client, leverDealQuery(book)),
      marks: (symbols) => leverMarks(symbols),
      fresh$: tradingGate(coinQuotes().freshness).pipe(map((gate) => gate.allowed)),
      reconnected$: realtime().reconnected$,
      startWorker: async () => (await import('../../../../workers/lever/positions')).createPositionsWorker(),
      order: leverMachine,
      makeId: newRequestId,
      onChange: (change) => afterChange(client, change),
      inspect: traceActor('lever-order', (c: { position: { id: number } | null }) => c.position?.id, 'leverOrder'),
    });
    setLive(started);
    return () => started.stop();
  }, [book, client]);
  // Between a change of book and the effect that starts its controller, the stopped one of the old book is not drawn.
  return live?.book === book ? live : null;
}

/**
 * Margins held and released, fees and P&L move the contract account; a closed one belongs to the history. A position
 * that closes (by its owner, a trigger or liquidation) leaves the open list at once, so the close is also said in a
 * toast: the shell's toasts are a polite live region, and the result of an order is announced, not only drawn.
 */
function afterChange(client: QueryClient, change: PositionChange): void {
  if (change.kind === 'position') {
    const news = closeNews(change.position);
    if (news) toast(news, 'info');
  }
  void client.invalidateQueries({ queryKey: leverKeys.all });
  void client.invalidateQueries({ queryKey: keys.assetLists });
}

/** What a position's close says (which position, and why it closed); null for any other change. */
export function closeNews(position: LeverPosition, t = i18n.t.bind(i18n)): string | null {
  if (position.phase !== 'closed' || !position.close_reason) return null;
  return t('lever.row.closedNews', { no: position.order_no, reason: t(`lever.closeReason.${position.close_reason}`) });
}
