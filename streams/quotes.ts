import { defer, filter, map, merge, type Observable, shareReplay, tap } from 'rxjs';
import { type MarketMessage, type Quote, quotesResponse } from '../protocol/market';
import { Freshness } from './freshness';
import { pollBesideSocket } from './polling';
import type { ConnectionState } from './socket';

/** What a stream needs from the socket; the real one is `RealtimeSocket`, tests pass a fake. */
export interface TopicSource {
  topic(name: string): Observable<MarketMessage>;
  readonly state$: Observable<ConnectionState>;
}

export interface QuoteBoard {
  /** Newest quote per symbol. */
  readonly quotes: ReadonlyMap<string, Quote>;
  /** +1 per change, so views can tell boards apart cheaply. */
  readonly version: number;
}

/**
 * Whether `incoming` replaces `current`: the newer server timestamp wins, then the higher tick sequence; the
 * same (ts, seq) is a duplicate, and anything older is late news from the other path.
 */
export function isNewer(current: Quote | undefined, incoming: Quote): boolean {
  if (!current) return true;
  if (incoming.ts !== current.ts) return incoming.ts > current.ts;
  return incoming.seq > current.seq;
}

/** Folds `incoming` into `quotes`; returns whether anything changed. */
export function mergeQuotes(quotes: Map<string, Quote>, incoming: readonly Quote[]): boolean {
  let changed = false;
  for (const quote of incoming) {
    if (isNewer(quotes.get(quote.symbol), quote)) {
      quotes.set(quote.symbol, quote);
      changed = true;
    }
  }
  return changed;
}

export interface QuoteStreamOptions {
  source: TopicSource;
  /** `quotes` (coins) or `stocks`. */
  topic: 'quotes' | 'stocks';
  /** One poll of the matching HTTP call; false when it failed. */
  poll: () => Promise<readonly Quote[] | false>;
  pollWhileUpMs?: number;
  pollWhileDownMs?: number;
  freshness?: Freshness;
}

export interface QuoteStream {
  /** The merged board, shared: every observer together costs one socket topic and one poller. */
  readonly board$: Observable<QuoteBoard>;
  readonly freshness: Freshness;
}

/** Socket quotes and polled quotes merged per instrument (DESIGN "Realtime"). */
export function createQuoteStream(options: QuoteStreamOptions): QuoteStream {
  const freshness = options.freshness ?? new Freshness();
  const board$ = defer(() => {
    const quotes = new Map<string, Quote>();
    let version = 0;
    let newestPolledTs = 0;

    const pushed$ = options.source.topic(options.topic).pipe(
      tap(() => freshness.touch()),
      map((message: MarketMessage) => {
        const parsed = quotesResponse.safeParse(message.data);
        return parsed.success ? parsed.data : [];
      }),
    );

    const polled$ = pollBesideSocket(options.source.state$, options.poll, {
      whileUpMs: options.pollWhileUpMs,
      whileDownMs: options.pollWhileDownMs,
    }).pipe(
      tap((list) => {
        // A poll proves the feed alive only if it brought a price newer than any polled before.
        const newest = list.reduce((ts, q) => Math.max(ts, q.ts), 0);
        if (newest > newestPolledTs) {
          newestPolledTs = newest;
          freshness.touch();
        }
      }),
    );

    return merge(pushed$, polled$).pipe(
      filter((list) => mergeQuotes(quotes, list)),
      map((): QuoteBoard => ({ quotes: new Map(quotes), version: ++version })),
    );
  }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
  return { board$, freshness };
}
