import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOAST_MS, toast, toasts } from '../state/toasts';
import { Toasts } from './Toasts';

/**
 * The toast layer stays one polite live region, there before any toast (so a screen reader hears each one as it
 * comes), whatever corner of the screen the styles put it in; a toast leaves on a tap or after its time.
 */

afterEach(() => {
  cleanup();
  toasts.items.splice(0);
  vi.useRealTimers();
});

describe('Toasts', () => {
  it('is a polite status region before, while and after a toast shows', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    render(<Toasts />);
    const region = screen.getByRole('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.className).toBe('toasts');
    expect(region.children).toHaveLength(0);

    // valtio hands the change to the view after the current task: await it.
    await act(async () => {
      toast('Welcome, ben', 'success');
    });
    expect(within(region).getByRole('button', { name: 'Welcome, ben' }).className).toBe('toast toast-success');

    await act(async () => {
      vi.advanceTimersByTime(TOAST_MS);
    });
    expect(screen.getByRole('status')).toBe(region);
    expect(region.children).toHaveLength(0);
  });

  it('lets a tap dismiss a toast', async () => {
    render(<Toasts />);
    await act(async () => {
      toast('Copied');
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copied' }));
    });
    expect(screen.queryByRole('button', { name: 'Copied' })).toBeNull();
  });
});
