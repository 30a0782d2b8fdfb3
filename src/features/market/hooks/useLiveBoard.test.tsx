import { act, renderHook } from '@testing-library/react';
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Quote } from '../../../../protocol/market';
import type { QuoteBoard } from '../../../../streams/quotes';
import { flatQuote } from '../../../test-support/quotes';
import { FrameWriter } from '../live/frameWriter';
import { useLiveBoard } from './useLiveBoard';

const quote = (symbol: string, last: string): Quote => flatQuote(symbol, last);
let version = 0;
const board = (...quotes: Quote[]): QuoteBoard => ({
  quotes: new Map(quotes.map((q) => [q.symbol, q])),
  version: ++version,
});

function setup(resortMs: number | null, initial?: QuoteBoard) {
  const source = new Subject<QuoteBoard>();
  const writer = new FrameWriter<Quote>(
    () => 1,
    () => {},
  );
  const update = vi.spyOn(writer, 'update');
  let renders = 0;
  const hook = renderHook(
    ({ ms }) => {
      renders++;
      return useLiveBoard(source, writer, ms, initial);
    },
    { initialProps: { ms: resortMs } },
  );
  return { source, update, hook, renders: () => renders };
}

beforeEach(() => {
  // performance.now too: the throttle reads it, and the test must not depend on how fast the machine runs it.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('useLiveBoard', () => {
  it('shows a board the source already has from the first render, the writer holding its prices before', () => {
    const seeded = board(quote('BTC', '64250.12'));
    const { source, update, hook, renders } = setup(null, seeded);
    expect(hook.result.current).toBe(seeded);
    expect(update).toHaveBeenCalledWith(seeded.quotes);
    expect(renders()).toBe(1);
    // The subscription's first board (the same instruments, live prices) goes to the writer, not to a render.
    act(() => source.next(board(quote('BTC', '64251.00'))));
    expect(renders()).toBe(1);
    expect(hook.result.current).toBe(seeded);
  });

  it('renders when the instruments change, never for a price tick; the writer gets every board', () => {
    const { source, update, hook, renders } = setup(null);
    expect(hook.result.current.version).toBe(0);
    const first = board(quote('BTC', '1'), quote('ETH', '2'));
    act(() => source.next(first));
    expect(hook.result.current).toBe(first);
    const rendered = renders();

    act(() => {
      for (let i = 0; i < 50; i++) source.next(board(quote('BTC', String(i)), quote('ETH', '2')));
      vi.advanceTimersByTime(5_000);
    });
    expect(renders()).toBe(rendered);
    expect(hook.result.current).toBe(first);
    expect(update).toHaveBeenCalledTimes(51);

    const grown = board(quote('BTC', '9'), quote('ETH', '2'), quote('SOL', '3'));
    act(() => source.next(grown));
    expect(hook.result.current).toBe(grown);
  });

  it('sorted by a live value, follows the prices at most once per resort interval', () => {
    const { source, hook, renders } = setup(250);
    act(() => source.next(board(quote('BTC', '1'))));
    const rendered = renders();
    let newest = board(quote('BTC', '1'));
    // 100 ticks over one second: four renders, not a hundred.
    for (let i = 0; i < 100; i++) {
      newest = board(quote('BTC', String(i)));
      act(() => {
        source.next(newest);
        vi.advanceTimersByTime(10);
      });
    }
    act(() => {
      vi.advanceTimersByTime(250);
    });
    expect(renders() - rendered).toBeLessThanOrEqual(5);
    expect(renders() - rendered).toBeGreaterThanOrEqual(4);
    expect(hook.result.current).toBe(newest); // the last tick is not lost
  });

  it('stops resorting when the sort no longer depends on prices', () => {
    const { source, hook, renders } = setup(250);
    act(() => source.next(board(quote('BTC', '1'))));
    hook.rerender({ ms: null });
    act(() => source.next(board(quote('BTC', '2')))); // subscribed again: its first board is shown
    const rendered = renders();
    for (let i = 0; i < 10; i++) {
      act(() => {
        source.next(board(quote('BTC', String(i))));
        vi.advanceTimersByTime(100);
      });
    }
    expect(renders()).toBe(rendered);
  });
});
