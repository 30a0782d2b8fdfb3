import { act, cleanup, fireEvent, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOLD_MS, useRowHold } from './useRowHold';

function Rows({ onHold, onOpen }: { onHold: (symbol: string) => void; onOpen: () => void }): ReactElement {
  const hold = useRowHold(onHold);
  return (
    <ul {...hold}>
      <li data-symbol="BTC">
        {/* biome-ignore lint/a11y/useValidAnchor: the row's link, as the market list has it */}
        <a
          href="#btc"
          onClick={(e) => {
            e.preventDefault();
            onOpen();
          }}
        >
          BTC
        </a>
      </li>
    </ul>
  );
}

describe('holding a market row', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  const setup = () => {
    const onHold = vi.fn();
    const onOpen = vi.fn();
    const view = render(<Rows onHold={onHold} onOpen={onOpen} />);
    const link = view.getByText('BTC');
    return { onHold, onOpen, link };
  };

  it('a finger held for the long-press time asks for the row, and its lift opens no link', () => {
    const { onHold, onOpen, link } = setup();
    fireEvent.pointerDown(link, { pointerType: 'touch', clientX: 10, clientY: 10 });
    act(() => vi.advanceTimersByTime(HOLD_MS - 1));
    expect(onHold).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onHold).toHaveBeenCalledWith('BTC');
    fireEvent.pointerUp(link, { pointerType: 'touch' });
    fireEvent.click(link);
    expect(onOpen).not.toHaveBeenCalled();
    // The next plain tap opens the row again.
    fireEvent.pointerDown(link, { pointerType: 'touch', clientX: 10, clientY: 10 });
    fireEvent.pointerUp(link, { pointerType: 'touch' });
    fireEvent.click(link);
    expect(onOpen).toHaveBeenCalledTimes(1);
    expect(onHold).toHaveBeenCalledTimes(1);
  });

  it('a tap, a scroll or a mouse press is no hold', () => {
    const { onHold, link } = setup();
    fireEvent.pointerDown(link, { pointerType: 'touch', clientX: 10, clientY: 10 });
    fireEvent.pointerUp(link, { pointerType: 'touch' });
    fireEvent.pointerDown(link, { pointerType: 'touch', clientX: 10, clientY: 10 });
    fireEvent.pointerMove(link, { pointerType: 'touch', clientX: 10, clientY: 40 });
    fireEvent.pointerDown(link, { pointerType: 'mouse', clientX: 10, clientY: 10 });
    act(() => vi.advanceTimersByTime(HOLD_MS * 2));
    expect(onHold).not.toHaveBeenCalled();
  });

  it('a context menu (a right click, the menu key) asks for the row instead of the browser’s menu', () => {
    const { onHold, link } = setup();
    const shown = fireEvent.contextMenu(link);
    expect(shown).toBe(false);
    expect(onHold).toHaveBeenCalledWith('BTC');
  });
});
