import { useMemo } from 'react';
import { distinctUntilChanged, map } from 'rxjs';
import type { Quote } from '../../protocol/market';
import { coinQuotes } from '../../streams/market';
import { useStream } from './useStream';

export interface SymbolQuote {
  quote: Quote | undefined;
  /** Whether any quote has arrived yet (before that, nothing is "stale", only loading). */
  seen: boolean;
}

const NONE: SymbolQuote = { quote: undefined, seen: false };

/**
 * One instrument's newest quote, at most once a frame, and only when that quote changed: the ticker and the ticket
 * follow their own instrument, not every coin that ticks, and nothing above them renders with it.
 */
export function useQuote(symbol: string): SymbolQuote {
  const quote$ = useMemo(
    () =>
      coinQuotes().board$.pipe(
        map((board): SymbolQuote => ({ quote: board.quotes.get(symbol), seen: board.version > 0 })),
        distinctUntilChanged((a, b) => a.quote === b.quote && a.seen === b.seen),
      ),
    [symbol],
  );
  return useStream(quote$, NONE);
}
