import { HOME_PATH } from '../lib/first-route';

/** SPEC 2: the tab bar, in order. `labelKey` names the translation. */
export interface TabEntry {
  path: string;
  labelKey: 'tabs.home' | 'tabs.spot' | 'tabs.option' | 'tabs.lever' | 'tabs.finance' | 'tabs.assets';
  icon: 'home' | 'spot' | 'option' | 'lever' | 'finance' | 'assets';
}

export const TABS: readonly TabEntry[] = [
  { path: HOME_PATH, labelKey: 'tabs.home', icon: 'home' },
  { path: '/pages/trade/index', labelKey: 'tabs.spot', icon: 'spot' },
  { path: '/pages/option/detail', labelKey: 'tabs.option', icon: 'option' },
  { path: '/pages/lever/index', labelKey: 'tabs.lever', icon: 'lever' },
  { path: '/pages/template/index', labelKey: 'tabs.finance', icon: 'finance' },
  { path: '/pages/assets/index', labelKey: 'tabs.assets', icon: 'assets' },
];

/** Paths that count as a tab page (the home tab is also served at `/`). */
export function isTabPath(pathname: string): boolean {
  const p = pathname === '/' ? HOME_PATH : pathname.replace(/\/+$/, '');
  return TABS.some((t) => t.path === p);
}
