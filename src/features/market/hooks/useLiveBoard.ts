import { useEffect, useRef, useState } from 'react';
import type { Observable } from 'rxjs';
import type { Quote } from '../../../../protocol/market';
import type { QuoteBoard } from '../../../../streams/quotes';
import type { FrameWriter } from '../live/frameWriter';

/** How often a list sorted by a live value (price, change, turnover) may reorder: a few times a second. */
export const RESORT_MS = 250;

const NO_BOARD: QuoteBoard = { quotes: new Map(), version: 0 };

/** Whether two boards hold the same instruments. */
export function sameInstruments(a: ReadonlyMap<string, Quote>, b: ReadonlyMap<string, Quote>): boolean {
  if (a.size !== b.size) return false;
  for (const symbol of b.keys()) if (!a.has(symbol)) return false;
  return true;
}

/**
 * A live board split in two: every update goes to `writer` (which writes the live cells once a frame), while React
 * gets a new board only when the instruments change, or, when `resortMs` is given (a sort by a live value), at most
 * once per `resortMs` while prices move, so the order follows them without a render per tick. The board is empty
 * (version 0) until the first update of the current source, unless the source already has a board (`initial`: the
 * stream's latest, such as the server's snapshot on a first visit), which the first render then shows.
 */
export function useLiveBoard(
  board$: Observable<QuoteBoard> | null,
  writer: FrameWriter<Quote>,
  resortMs: number | null,
  initial?: QuoteBoard,
): QuoteBoard {
  const [shown, setShown] = useState<{ source: Observable<QuoteBoard> | null; board: QuoteBoard }>(() => {
    // The writer holds the values before the rows mount, so each live cell is filled as it registers: the first
    // paint has the prices, not empty cells a frame later.
    if (initial) writer.update(initial.quotes);
    return { source: board$, board: initial ?? NO_BOARD };
  });
  // What is on screen, for the subscription to compare with: a first board of the same instruments is no news.
  const onScreen = useRef(shown);
  onScreen.current = shown;

  useEffect(() => {
    if (!board$) return;
    const current = onScreen.current;
    let last: QuoteBoard | undefined =
      current.source === board$ && current.board.version > 0 ? current.board : undefined;
    let lastAt = Number.NEGATIVE_INFINITY;
    let pending: QuoteBoard | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const show = (board: QuoteBoard) => {
      last = board;
      lastAt = performance.now();
      pending = undefined;
      setShown({ source: board$, board });
    };
    const sub = board$.subscribe((board) => {
      writer.update(board.quotes);
      if (!last || !sameInstruments(last.quotes, board.quotes)) {
        clearTimeout(timer);
        timer = undefined;
        show(board);
        return;
      }
      if (resortMs === null) return;
      pending = board;
      timer ??= setTimeout(
        () => {
          timer = undefined;
          if (pending) show(pending);
        },
        Math.max(0, lastAt + resortMs - performance.now()),
      );
    });
    return () => {
      sub.unsubscribe();
      clearTimeout(timer);
    };
  }, [board$, writer, resortMs]);

  // A board of the previous source (before this one's first update) is not this source's.
  return shown.source === board$ ? shown.board : NO_BOARD;
}
