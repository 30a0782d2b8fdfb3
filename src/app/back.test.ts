import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOME_PATH } from '../lib/first-route';
import { createExitGuard, EXIT_WINDOW_MS, goBack, installExitGuard } from './back';

describe('back button', () => {
  it('goes back in history when there is in-app history', () => {
    const back = vi.fn();
    const navigate = vi.fn();
    goBack({ history: { canGoBack: () => true, back } as never, navigate });
    expect(back).toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('goes to the home tab (replacing) when there is none', () => {
    const back = vi.fn();
    const navigate = vi.fn(async () => {});
    goBack({ history: { canGoBack: () => false, back } as never, navigate });
    expect(back).not.toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith({ to: HOME_PATH, replace: true });
  });
});

describe('press back twice to exit (SPEC 1)', () => {
  it('asks first, exits on a second press within 2 s, asks again after 2 s', () => {
    let now = 1_000;
    const guard = createExitGuard(() => now);
    expect(guard.press()).toBe('ask');
    now += EXIT_WINDOW_MS - 1;
    expect(guard.press()).toBe('exit');
    now += 10;
    expect(guard.press()).toBe('ask');
    now += EXIT_WINDOW_MS;
    expect(guard.press()).toBe('ask');
  });

  describe('history wiring', () => {
    afterEach(() => {
      window.history.replaceState(null, '', '/');
    });

    it('keeps an extra entry on home, shows the hint on the first back, leaves on the second', async () => {
      window.history.replaceState({ __TSR_index: 0 }, '', HOME_PATH);
      const ask = vi.fn();
      const routerSaw = vi.fn();
      window.addEventListener('popstate', routerSaw);
      let now = 0;
      const wiring = installExitGuard(
        window,
        { atHomeRoot: () => window.location.pathname === HOME_PATH, ask },
        createExitGuard(() => now),
      );
      wiring.arm();
      const lengthArmed = window.history.length;
      expect(window.history.state).toMatchObject({ __twExitGuard: true });

      const back = vi.spyOn(window.history, 'back');
      // The user presses back: the browser pops to the home entry below ours.
      window.history.replaceState({ __TSR_index: 0 }, '', HOME_PATH);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
      expect(ask).toHaveBeenCalledTimes(1);
      expect(routerSaw).not.toHaveBeenCalled();
      expect(window.history.state).toMatchObject({ __twExitGuard: true });
      expect(window.history.length).toBeGreaterThan(lengthArmed);

      now += 500;
      window.history.replaceState({ __TSR_index: 0 }, '', HOME_PATH);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
      expect(ask).toHaveBeenCalledTimes(1);
      expect(back).toHaveBeenCalledTimes(1);

      back.mockRestore();
      wiring.dispose();
      window.removeEventListener('popstate', routerSaw);
    });
  });
});
