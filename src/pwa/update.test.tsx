import type { RegisterSWOptions } from 'virtual:pwa-register';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n, startI18n } from '../lib/i18n';
import { PwaBar } from './PwaBar';
import { registerServiceWorker } from './service-worker';
import { appUpdate } from './update';

/**
 * The "new version" prompt with vite-plugin-pwa's registerSW (and so workbox-window) replaced: the test plays the
 * service worker's side (a new version waits; after skip-waiting it controls the page) and checks what the user
 * sees and that the page reloads exactly once. The browser test (tests/e2e/pwa.test.ts) does the same with a real
 * worker and a real second deployment.
 */
const registration = vi.hoisted(() => ({
  options: undefined as RegisterSWOptions | undefined,
  updateServiceWorker: vi.fn(async () => {}),
}));
vi.mock('virtual:pwa-register', () => ({
  registerSW: (options: RegisterSWOptions) => {
    registration.options = options;
    return registration.updateServiceWorker;
  },
}));

/** A window whose reload the test counts (jsdom cannot reload). */
function fakeWindow() {
  const reload = vi.fn();
  return { win: { location: { reload } } as unknown as Window, reload };
}

// The bar also shows the connection banner, which follows the tab's socket: a quiet stand-in instead of socket.io.
vi.mock('../../streams/socket', async () => {
  const { BehaviorSubject } = await import('rxjs');
  const state = new BehaviorSubject('connected');
  return { realtime: () => ({ state$: state, connectionState: 'connected' }) };
});

beforeAll(async () => {
  await startI18n('de');
});

afterEach(() => {
  cleanup();
  appUpdate.prompt = null;
  registration.updateServiceWorker.mockClear();
});

const renderBar = () =>
  render(
    <I18nextProvider i18n={i18n}>
      <PwaBar />
    </I18nextProvider>,
  );

describe('new version available', () => {
  it('shows nothing until a new version waits, then offers reload; reload activates it once and reloads once', async () => {
    const { win, reload } = fakeWindow();
    registerServiceWorker(win);
    expect(registration.options?.immediate).toBe(true);
    renderBar();
    expect(screen.queryByTestId('update-prompt')).toBeNull();

    act(() => registration.options?.onNeedRefresh?.());
    expect((await screen.findByTestId('update-prompt')).textContent).toContain(
      'Eine neue Version von TradeWave ist da.',
    );

    const button = screen.getByRole('button', { name: 'Neu laden' });
    fireEvent.click(button);
    fireEvent.click(button);
    expect(registration.updateServiceWorker).toHaveBeenCalledTimes(1);
    // Busy until the new version controls the page.
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(true));

    // workbox-window reports the new controller; a second report (another listener) must not reload again.
    registration.options?.onNeedReload?.();
    registration.options?.onNeedReload?.();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('"Later" hides the prompt without activating anything; the next waiting version asks again', async () => {
    const { win, reload } = fakeWindow();
    registerServiceWorker(win);
    renderBar();
    act(() => registration.options?.onNeedRefresh?.());
    fireEvent.click(await screen.findByRole('button', { name: 'Später' }));
    await waitFor(() => expect(screen.queryByTestId('update-prompt')).toBeNull());
    expect(registration.updateServiceWorker).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();

    act(() => registration.options?.onNeedRefresh?.());
    expect((await screen.findByRole('button', { name: 'Neu laden' })).hasAttribute('disabled')).toBe(false);
  });

  it('lets the user try again when activating fails', async () => {
    const { win } = fakeWindow();
    registerServiceWorker(win);
    renderBar();
    registration.updateServiceWorker.mockRejectedValueOnce(new Error('no waiting worker'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    act(() => registration.options?.onNeedRefresh?.());
    const button = await screen.findByRole('button', { name: 'Neu laden' });
    fireEvent.click(button);
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    fireEvent.click(button);
    expect(registration.updateServiceWorker).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});
