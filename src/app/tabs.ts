import type { TabEntry } from '../lib/feature';
import { HOME_PATH } from '../lib/first-route';
import { FEATURES } from './features';

/** SPEC 2: the tab bar, in order, from the features' tabs. `labelKey` names the translation. */
export const TABS: readonly TabEntry[] = FEATURES.flatMap((f) => f.tabs ?? []).sort((a, b) => a.at - b.at);

/** Paths that count as a tab page (the home tab is also served at `/`). */
export function isTabPath(pathname: string): boolean {
  const p = pathname === '/' ? HOME_PATH : pathname.replace(/\/+$/, '');
  return TABS.some((t) => t.path === p);
}
