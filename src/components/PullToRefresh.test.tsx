import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n, startI18n } from '../lib/i18n';
import { PULL_THRESHOLD, PullToRefresh } from './PullToRefresh';

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

const touch = (clientY: number) => ({ touches: [{ clientY, clientX: 10, identifier: 0 }] });

/** Drags from y=100 down by `distance` px and lets go. */
function drag(el: HTMLElement, distance: number, steps = 4) {
  fireEvent.touchStart(el, touch(100));
  for (let i = 1; i <= steps; i++) fireEvent.touchMove(el, touch(100 + (distance * i) / steps));
  fireEvent.touchEnd(el, { touches: [] });
}

function setScrollY(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
}

describe('PullToRefresh', () => {
  beforeAll(async () => {
    await startI18n('en');
    await i18n.changeLanguage('en');
  });
  afterEach(() => {
    cleanup();
    setScrollY(0);
  });

  const setup = (onRefresh: () => Promise<unknown>) => {
    render(
      <PullToRefresh onRefresh={onRefresh}>
        <p>content</p>
      </PullToRefresh>,
    );
    return screen.getByTestId('pull-to-refresh');
  };

  it('a drag from the top past the threshold shows the spinner and refreshes once', async () => {
    const pending = deferred();
    const onRefresh = vi.fn(() => pending.promise);
    const el = setup(onRefresh);
    fireEvent.touchStart(el, touch(100));
    fireEvent.touchMove(el, touch(100 + PULL_THRESHOLD));
    expect(el.dataset.phase).toBe('pulling');
    expect(screen.getByText(i18n.t('pull.pull'))).toBeTruthy();
    fireEvent.touchMove(el, touch(100 + PULL_THRESHOLD * 3));
    expect(el.dataset.phase).toBe('armed');
    expect(screen.getByText(i18n.t('pull.release'))).toBeTruthy();
    fireEvent.touchEnd(el, { touches: [] });
    expect(onRefresh).toHaveBeenCalledTimes(1);
    expect(el.dataset.phase).toBe('refreshing');
    expect(el.querySelector('.spinner')).not.toBeNull();
    expect(screen.getByRole('status').textContent).toBe(i18n.t('pull.refreshing'));
    // A second pull while the first refresh runs does not start another.
    drag(el, PULL_THRESHOLD * 4);
    expect(onRefresh).toHaveBeenCalledTimes(1);
    await act(async () => {
      pending.resolve();
      await pending.promise;
    });
    expect(el.dataset.phase).toBe('idle');
    expect(el.querySelector('.spinner')).toBeNull();
  });

  it('a short drag springs back without refreshing', () => {
    const onRefresh = vi.fn(async () => {});
    const el = setup(onRefresh);
    drag(el, PULL_THRESHOLD); // resistance halves it: below the threshold
    expect(onRefresh).not.toHaveBeenCalled();
    expect(el.dataset.phase).toBe('idle');
    expect((el.querySelector('.ptr-indicator') as HTMLElement).style.height).toBe('0px');
  });

  it('does nothing when the page is not scrolled to the top, or the drag goes up', () => {
    const onRefresh = vi.fn(async () => {});
    const el = setup(onRefresh);
    setScrollY(120);
    drag(el, PULL_THRESHOLD * 4);
    expect(onRefresh).not.toHaveBeenCalled();
    setScrollY(0);
    drag(el, -PULL_THRESHOLD * 4);
    expect(onRefresh).not.toHaveBeenCalled();
    // Going back up past the start cancels a pull that was armed.
    fireEvent.touchStart(el, touch(100));
    fireEvent.touchMove(el, touch(100 + PULL_THRESHOLD * 4));
    fireEvent.touchMove(el, touch(90));
    fireEvent.touchEnd(el, { touches: [] });
    expect(onRefresh).not.toHaveBeenCalled();
  });

  it('ignores multi-touch gestures (pinch)', () => {
    const onRefresh = vi.fn(async () => {});
    const el = setup(onRefresh);
    fireEvent.touchStart(el, {
      touches: [
        { clientY: 100, clientX: 10, identifier: 0 },
        { clientY: 150, clientX: 60, identifier: 1 },
      ],
    });
    fireEvent.touchMove(el, touch(400));
    fireEvent.touchEnd(el, { touches: [] });
    expect(onRefresh).not.toHaveBeenCalled();
  });

  it('has a refresh button for keyboard and screen-reader users', async () => {
    const onRefresh = vi.fn(async () => {});
    setup(onRefresh);
    const button = screen.getByRole('button', { name: i18n.t('pull.refresh') });
    expect(button.querySelector('svg')).not.toBeNull();
    await act(async () => {
      fireEvent.click(button);
    });
    expect(onRefresh).toHaveBeenCalledTimes(1);
  });

  it('a failing refresh still ends the spinner', async () => {
    const onRefresh = vi.fn(async () => {
      throw new Error('offline');
    });
    const el = setup(onRefresh);
    await act(async () => {
      drag(el, PULL_THRESHOLD * 4);
    });
    expect(onRefresh).toHaveBeenCalledTimes(1);
    expect(el.dataset.phase).toBe('idle');
  });
});
