// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import type { BookTotals, PositionFigures, PositionsUpdate } from '../../workers/lever/positions';
import { FigureBoard } from './figure-board';

const figures = (id: number, pnl: string, account: 'real' | 'simulator' = 'simulator'): PositionFigures => ({
  id,
  symbol: 'BTC',
  account,
  marginMode: 'isolated',
  side: 'long',
  mark: '60000.00',
  pnl,
  roe: '1.00',
  marginRatio: '5.00',
  liquidationPrice: '54000.00',
  liquidationDistance: '10.00',
  warning: 'safe',
});

const totals = (account: 'real' | 'simulator', pnl: string): BookTotals => ({
  account,
  positions: 1,
  pnl,
  margin: '12',
  equity: null,
  crossMarginRatio: null,
});

const update = (changed: PositionFigures[], removed: number[] = [], pnl = '0'): PositionsUpdate => ({
  changed,
  removed,
  totals: { real: totals('real', '0'), simulator: totals('simulator', pnl) },
  rejected: [],
});

/** A frame clock the test runs by hand. */
function frames() {
  let queued: (() => void) | null = null;
  return {
    request: (callback: () => void) => {
      queued = callback;
      return 1;
    },
    cancel: () => {
      queued = null;
    },
    run: () => {
      const callback = queued;
      queued = null;
      callback?.();
    },
    get queued() {
      return queued !== null;
    },
  };
}

describe('the figure board (one publication per animation frame)', () => {
  it('tells each row once per frame, with the newest figures, and only its own', () => {
    const clock = frames();
    const board = new FigureBoard('simulator', clock.request, clock.cancel);
    const one = vi.fn();
    const two = vi.fn();
    board.subscribe(1, one);
    board.subscribe(2, two);
    board.apply(update([figures(1, '1')]));
    board.apply(update([figures(1, '2')]));
    board.apply(update([figures(1, '3')], [], '3'));
    // Nothing is published between frames.
    expect(board.get(1)).toBeUndefined();
    expect(one).not.toHaveBeenCalled();
    clock.run();
    expect(one).toHaveBeenCalledTimes(1);
    expect(two).not.toHaveBeenCalled();
    expect(board.get(1)?.pnl).toBe('3');
    expect(board.getTotals()?.pnl).toBe('3');
  });

  it('drops removed positions and other books', () => {
    const clock = frames();
    const board = new FigureBoard('simulator', clock.request, clock.cancel);
    board.apply(update([figures(1, '1'), figures(9, '1', 'real')]));
    clock.run();
    expect(board.get(9)).toBeUndefined();
    const one = vi.fn();
    board.subscribe(1, one);
    board.apply(update([], [1]));
    clock.run();
    expect(board.get(1)).toBeUndefined();
    expect(one).toHaveBeenCalledTimes(1);
  });

  it('stops its frame when disposed', () => {
    const clock = frames();
    const board = new FigureBoard('simulator', clock.request, clock.cancel);
    board.apply(update([figures(1, '1')]));
    board.dispose();
    expect(clock.queued).toBe(false);
    board.apply(update([figures(1, '2')]));
    expect(clock.queued).toBe(false);
  });
});
