import { useCallback, useSyncExternalStore } from 'react';
import type { BookTotals, PositionFigures } from '../../../../workers/positions';
import type { FigureBoard } from '../live/figureBoard';

/** A position's live figures: the row renders again only when the board publishes new ones, once a frame at most. */
export function useFigures(board: FigureBoard | null, id: number): PositionFigures | undefined {
  const subscribe = useCallback((listener: () => void) => board?.subscribe(id, listener) ?? (() => {}), [board, id]);
  return useSyncExternalStore(subscribe, () => board?.get(id));
}

/** The book's totals (Σ P&L, margin, equity), published with the rows' figures. */
export function useBookTotals(board: FigureBoard | null): BookTotals | null {
  const subscribe = useCallback((listener: () => void) => board?.subscribeTotals(listener) ?? (() => {}), [board]);
  return useSyncExternalStore(subscribe, () => board?.getTotals() ?? null);
}
