import { type AnyRouter, useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import { HOME_PATH } from '../lib/first-route';

/** SPEC 1: back goes back in the app's history, or to the home tab when there is none. */
export function goBack(router: Pick<AnyRouter, 'history' | 'navigate'>): void {
  if (router.history.canGoBack()) router.history.back();
  else void router.navigate({ to: HOME_PATH, replace: true });
}

export function useGoBack(): () => void {
  const router = useRouter();
  return useCallback(() => goBack(router), [router]);
}

/** SPEC 1, 8: in the installed app, back on the home tab asks once ("press again") and exits on a second press within 2 s. */
export const EXIT_WINDOW_MS = 2000;

export function createExitGuard(now: () => number = () => Date.now(), windowMs = EXIT_WINDOW_MS) {
  let firstAt: number | null = null;
  return {
    /** 'ask' shows the hint and stays; 'exit' leaves the app. */
    press(): 'ask' | 'exit' {
      const t = now();
      if (firstAt !== null && t - firstAt < windowMs) {
        firstAt = null;
        return 'exit';
      }
      firstAt = t;
      return 'ask';
    },
  };
}

/** The display mode of the installed app (the web manifest's `display`, vite.config.ts). */
const STANDALONE_QUERY = '(display-mode: standalone)';

/** The installed (home-screen) app: display-mode standalone, or iOS's navigator.standalone. */
export function isStandalone(win: Window = window): boolean {
  const nav = win.navigator as Navigator & { standalone?: boolean };
  return nav.standalone === true || win.matchMedia?.(STANDALONE_QUERY).matches === true;
}

/**
 * Calls `listener` when the display mode changes. A page does not always start in the mode it ends in: installing
 * the app from an open tab moves that very page into the app's own window without reloading it (desktop Chrome),
 * and its back button must then start asking before it exits.
 */
export function onDisplayModeChange(win: Window, listener: () => void): () => void {
  const query = win.matchMedia?.(STANDALONE_QUERY);
  if (!query) return () => {};
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

const MARK = '__twExitGuard';

interface ExitWiring {
  /** True when the current page is the home tab with no in-app history behind it. */
  atHomeRoot: () => boolean;
  ask: () => void;
}

/**
 * Keeps one extra history entry on top of the home tab while standalone, so the system back gesture lands on
 * our listener instead of closing the app. Returns `arm` (call after each navigation) and a cleanup.
 */
export function installExitGuard(win: Window, wiring: ExitWiring, guard = createExitGuard()) {
  let leaving = false;
  const hasMark = () => {
    const s: unknown = win.history.state;
    return typeof s === 'object' && s !== null && MARK in s;
  };
  const arm = () => {
    if (leaving || !wiring.atHomeRoot() || hasMark()) return;
    const state: unknown = win.history.state;
    win.history.pushState({ ...(typeof state === 'object' && state !== null ? state : {}), [MARK]: true }, '');
  };
  const onPop = (e: PopStateEvent) => {
    if (leaving || hasMark() || !wiring.atHomeRoot()) return;
    // Back from our extra entry to the home tab itself: the router has nothing to do (same URL).
    e.stopImmediatePropagation();
    if (guard.press() === 'exit') {
      leaving = true;
      win.history.back();
      return;
    }
    wiring.ask();
    arm();
  };
  // Capture listeners on the target run before the router's own popstate listener.
  win.addEventListener('popstate', onPop, { capture: true });
  return { arm, dispose: () => win.removeEventListener('popstate', onPop, { capture: true }) };
}
