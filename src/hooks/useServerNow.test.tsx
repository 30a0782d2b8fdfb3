import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useServerNow } from './useServerNow';

// Server time as the fake timers' clock, so a test moves it (the real one reads the monotonic clock plus an offset).
vi.mock('../../core/clock', () => ({ serverNow: () => Date.now() }));

function Countdown({ id, active = true }: { id: string; active?: boolean }) {
  const now = useServerNow(active, 1_000);
  return <span data-testid={id}>{now}</span>;
}

const shown = (id: string) => Number(screen.getByTestId(id).textContent);

describe('useServerNow', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('redraws every countdown of one period from one timer, all on the same reading', () => {
    const started = vi.spyOn(globalThis, 'setInterval');
    render(
      <>
        <Countdown id="a" />
        <Countdown id="b" />
        <Countdown id="c" />
      </>,
    );
    expect(started).toHaveBeenCalledTimes(1);
    const before = shown('a');
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    expect(shown('a')).toBe(before + 1_000);
    expect([shown('b'), shown('c')]).toEqual([shown('a'), shown('a')]);
    started.mockRestore();
  });

  it('stops its timer when the last countdown leaves, and starts from a fresh reading next time', () => {
    const stopped = vi.spyOn(globalThis, 'clearInterval');
    const first = render(<Countdown id="a" />);
    first.unmount();
    expect(stopped).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5_000);
    render(<Countdown id="b" />);
    expect(shown('b')).toBe(Date.now());
    stopped.mockRestore();
  });

  it('keeps the time it was drawn with while not active', () => {
    render(<Countdown id="idle" active={false} />);
    const drawn = shown('idle');
    act(() => {
      vi.advanceTimersByTime(3_000);
    });
    expect(shown('idle')).toBe(drawn);
  });
});
