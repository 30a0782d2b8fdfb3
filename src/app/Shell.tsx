import { Outlet, useRouter } from '@tanstack/react-router';
import { type ReactElement, useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { HOME_PATH } from '../lib/first-route';
import { PwaBar } from '../pwa/PwaBar';
import { toast } from '../state/toasts';
import { installExitGuard, isStandalone, onDisplayModeChange } from './back';
import { LoadingBar } from './LoadingBar';
import { SideMenu } from './SideMenu';
import { TabBar } from './TabBar';
import { Toasts } from './Toasts';

const atHomeRoot = (): boolean => {
  const path = window.location.pathname;
  const state: unknown = window.history.state;
  const index = typeof state === 'object' && state !== null && '__TSR_index' in state ? state.__TSR_index : 0;
  return (path === '/' || path === HOME_PATH) && index === 0;
};

const followDisplayMode = (changed: () => void) => onDisplayModeChange(window, changed);

/** The app frame: centred column of at most 450px with the bars, menu, toasts and loading indicator. */
export function Shell(): ReactElement {
  const { t } = useTranslation();
  const router = useRouter();

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
      <SideMenu />
      <PwaBar />
      <Toasts />
    </div>
  );
}
