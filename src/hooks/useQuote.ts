import { useMemo } from 'react';
import { distinctUntilChanged, map } from 'rxjs';
import type { Quote } from '../../protocol/market';
import { coinQuotes } from '../../streams/market';
import { snapshotBoard } from '../../streams/snapshot-board';
import { useStream } from './useStream';

export interface SymbolQuote {
  quote: Quote | undefined;
  /** Whether any quote has arrived yet (before that, nothing is "stale", only loading). */
  seen: boolean;
}

const NONE: SymbolQuote = { quote: undefined, seen: false };

/** The instrument's quote in the page's market snapshot while that is current (streams/snapshot-board.ts). */
function snapshotQuote(symbol: string): SymbolQuote {
  const quote = snapshotBoard()?.quotes.get(symbol);
  return quote ? { quote, seen: true } : NONE;
}

/**
 * One instrument's newest quote, at most once a frame, and only when that quote changed: the ticker and the ticket
 * follow their own instrument, not every coin that ticks, and nothing above them renders with it. The first render
 * shows the page's market snapshot when it has a current one (a trading tab opened first: issue 27).
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
  const initial = useMemo(() => snapshotQuote(symbol), [symbol]);
  const shown = useStream(quote$, initial);
  // useStream keeps its value when the symbol changes, until the new symbol's stream answers: another instrument's
  // quote is never shown as this one's.
  return shown.quote !== undefined && shown.quote.symbol !== symbol ? initial : shown;
}
