import { defer, filter, map, type Observable, shareReplay, tap } from 'rxjs';
import { z } from 'zod/mini';
import { type Trade, trade } from '../protocol/market';
import { Freshness } from './freshness';
import type { TopicSource } from './quotes';

/** Trades kept for the list. */
export const RECENT_TRADES = 30;

const tradeList = z.array(trade);

/**
 * Folds a message's trades (newest first) into the list (newest first): a snapshot replaces it, an update is
 * put on top; trades already held (same id) are dropped, so a resync's snapshot never doubles a row.
 */
export function mergeTrades(held: readonly Trade[], incoming: readonly Trade[], snapshot: boolean): Trade[] {
  const base = snapshot ? [] : held;
  const seen = new Set(base.map((t) => t.id));
  const fresh = incoming.filter((t) => !seen.has(t.id) && seen.add(t.id));
  return [...fresh, ...base].sort((a, b) => b.ts - a.ts).slice(0, RECENT_TRADES);
}

export interface TradeStream {
  readonly trades$: Observable<readonly Trade[]>;
  readonly freshness: Freshness;
}

/** Recent trades of one instrument from the socket's `trades:<SYMBOL>` topic. */
export function createTradeStream(source: TopicSource, symbol: string, freshness = new Freshness()): TradeStream {
  const trades$ = defer(() => {
    let held: Trade[] = [];
    let first = true;
    return source.topic(`trades:${symbol}`).pipe(
      tap(() => freshness.touch()),
      filter((message) => {
        const parsed = tradeList.safeParse(message.data);
        const incoming = parsed.success ? parsed.data : [];
        if (!first && incoming.length === 0 && message.kind === 'update') return false;
        first = false;
        held = mergeTrades(held, incoming, message.kind === 'snapshot');
        return true;
      }),
      map(() => held),
    );
  }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
  return { trades$, freshness };
}
