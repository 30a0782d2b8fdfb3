import { Outlet, useLocation, useRouter } from '@tanstack/react-router';
import { lazy, type ReactElement, Suspense, useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { HOME_PATH } from '../lib/first-route';
import { PwaBar } from '../pwa/PwaBar';
import { toast } from '../state/toasts';
import { setMenuOpen, ui } from '../state/ui';
import { installExitGuard, isStandalone, onDisplayModeChange } from './back';
import { LoadingBar } from './LoadingBar';
import { TabBar } from './TabBar';
import { Toasts } from './Toasts';

const atHomeRoot = (): boolean => {
  const path = window.location.pathname;
  const state: unknown = window.history.state;
  const index = typeof state === 'object' && state !== null && '__TSR_index' in state ? state.__TSR_index : 0;
  return (path === '/' || path === HOME_PATH) && index === 0;
};

/**
 * The left menu's code loads when it first opens, not with every route (DESIGN "Fast on a phone"); the service worker
 * precaches it with the shell (vite.config.ts), so it opens offline too.
 */
const SideMenu = lazy(() => import('./SideMenu').then((m) => ({ default: m.SideMenu })));

const followDisplayMode = (changed: () => void) => onDisplayModeChange(window, changed);

/** The app frame: centred column of at most 450px with the bars, menu, toasts and loading indicator. */
export function Shell(): ReactElement {
  const { t } = useTranslation();
  const router = useRouter();
  const { menuOpen } = useSnapshot(ui);
  const { pathname } = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the menu closes whenever the page changes
  useEffect(() => setMenuOpen(false), [pathname]);

  // Standalone can begin while the page is open (installed from this tab), so it is followed, not read once.
  const standalone = useSyncExternalStore(followDisplayMode, () => isStandalone());

  useEffect(() => {
    if (!standalone) return;
    const guard = installExitGuard(window, { atHomeRoot, ask: () => toast(t('app.pressAgainToExit')) });
    guard.arm();
    const unsubscribe = router.subscribe('onResolved', () => guard.arm());
    return () => {
      unsubscribe();
      guard.dispose();
    };
  }, [router, t, standalone]);

  return (
    <div className="app-frame">
      <LoadingBar />
      <Outlet />
      <TabBar />
      {menuOpen ? (
        <Suspense fallback={null}>
          <SideMenu />
        </Suspense>
      ) : null}
      <PwaBar />
      <Toasts />
    </div>
  );
}
