import { Outlet, useRouter } from '@tanstack/react-router';
import { type ReactElement, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../state/toasts';
import { installExitGuard, isStandalone } from './back';
import { LoadingBar } from './LoadingBar';
import { SideMenu } from './SideMenu';
import { TabBar } from './TabBar';
import { Toasts } from './Toasts';
import { HOME_PATH } from './tabs';

const atHomeRoot = (): boolean => {
  const path = window.location.pathname;
  const state: unknown = window.history.state;
  const index = typeof state === 'object' && state !== null && '__TSR_index' in state ? state.__TSR_index : 0;
  return (path === '/' || path === HOME_PATH) && index === 0;
};

/** The app frame: centred column of at most 450px with the bars, menu, toasts and loading indicator. */
export function Shell(): ReactElement {
  const { t } = useTranslation();
  const router = useRouter();

  useEffect(() => {
    if (!isStandalone()) return;
    const guard = installExitGuard(window, { atHomeRoot, ask: () => toast(t('app.pressAgainToExit')) });
    guard.arm();
    const unsubscribe = router.subscribe('onResolved', () => guard.arm());
    return () => {
      unsubscribe();
      guard.dispose();
    };
  }, [router, t]);

  return (
    <div className="app-frame">
      <LoadingBar />
      <Outlet />
      <TabBar />
      <SideMenu />
      <Toasts />
    </div>
  );
}
