import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../data/query';
import { i18n, startI18n } from '../lib/i18n';
import { clearSession } from '../state/session';
import { isStandalone, onDisplayModeChange } from './back';
import { createAppRouter } from './router';

/**
 * "Press again to exit" (SPEC 1) in the installed app. What standalone display changes for it: the mode itself, which
 * can begin while the page is open (installing from a tab moves that page into the app's window without a reload).
 * The guard must follow the mode, not read it once at start.
 */

/** A `(display-mode: standalone)` media query list the test switches, like the browser does on install. */
function displayMode(initial: boolean) {
  const list = new EventTarget() as MediaQueryList & EventTarget;
  let matches = initial;
  Object.defineProperty(list, 'matches', { get: () => matches });
  const matchMedia = vi.fn((query: string) =>
    query === '(display-mode: standalone)' ? list : ({ matches: false, addEventListener() {} } as never),
  );
  return {
    matchMedia,
    set(value: boolean) {
      matches = value;
      list.dispatchEvent(new Event('change'));
    },
  };
}

/** The system back gesture from the guard's extra entry down to the home tab itself. */
function pressBack() {
  window.history.replaceState({ __TSR_index: 0 }, '', '/');
  window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
}

beforeAll(async () => {
  await startI18n('en');
});

beforeEach(() => {
  clearSession();
  window.history.replaceState(null, '', '/');
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ type: 'ok', code: 1, message: 'OK', data: [] }))),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('display mode', () => {
  it('reads standalone from the media query and reports its changes until told to stop', () => {
    const mode = displayMode(false);
    const win = { navigator: {}, matchMedia: mode.matchMedia } as unknown as Window;
    const changed = vi.fn();
    const stop = onDisplayModeChange(win, changed);
    expect(isStandalone(win)).toBe(false);
    mode.set(true);
    expect(isStandalone(win)).toBe(true);
    expect(changed).toHaveBeenCalledTimes(1);
    stop();
    mode.set(false);
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it('counts iOS home-screen apps as standalone, and a browser without matchMedia as not', () => {
    expect(isStandalone({ navigator: { standalone: true } } as unknown as Window)).toBe(true);
    const bare = { navigator: {} } as unknown as Window;
    expect(isStandalone(bare)).toBe(false);
    expect(onDisplayModeChange(bare, () => {})).toBeTypeOf('function');
  });
});

describe('press again to exit, when the open page becomes the installed app', () => {
  it('does nothing in a browser tab, then guards the home tab once the page is standalone', async () => {
    const mode = displayMode(false);
    vi.stubGlobal('matchMedia', mode.matchMedia);
    const router = createAppRouter(createMemoryHistory({ initialEntries: ['/'] }));
    render(
      <QueryClientProvider client={createQueryClient()}>
        <I18nextProvider i18n={i18n}>
          <RouterProvider router={router} />
        </I18nextProvider>
      </QueryClientProvider>,
    );
    await screen.findByRole('navigation', { name: 'Main sections' });
    // A browser tab: back belongs to the browser, no extra entry, no hint.
    expect(window.history.state).toBeNull();

    act(() => mode.set(true));
    expect(window.history.state).toMatchObject({ __twExitGuard: true });
    act(() => pressBack());
    expect(await screen.findByText('Press again to exit the app')).toBeTruthy();
    // The guard put its entry back, so the next back lands on it again (the second press within 2 s exits).
    expect(window.history.state).toMatchObject({ __twExitGuard: true });

    // Back to a browser tab (the app window's "open in browser"): the guard lets go, back reaches the router again.
    const routerSaw = vi.fn();
    window.addEventListener('popstate', routerSaw);
    act(() => mode.set(false));
    pressBack();
    expect(routerSaw).toHaveBeenCalledTimes(1);
    window.removeEventListener('popstate', routerSaw);
  });
});
