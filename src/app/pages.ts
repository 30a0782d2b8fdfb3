import type { ComponentType } from 'react';
import type { Feature, FeaturePage } from '../lib/feature';
import { HOME_PATH } from '../lib/first-route';
import { type FeatureNamespace, loadNamespace } from '../lib/i18n';
import { isLoggedIn } from '../state/session';
import { FEATURES } from './features';

/**
 * A page of the app: its spec path under /pages/, its lazily loaded module and whether it needs a session. Loading
 * a page loads its module and its feature's translations (in the active language) together, with those of the
 * features it borrows components from.
 */
export interface PageDef {
  path: string;
  feature: FeatureNamespace;
  load: () => Promise<{ default: ComponentType }>;
  auth: boolean;
}

/**
 * A feature's page as the router loads it: its module with its feature's translations and those it borrows, and,
 * for a page that names one, its first data beside them (`prefetch`; on an `auth` page only for a member).
 */
export function pageDef(f: Feature, p: FeaturePage, member: () => boolean = isLoggedIn): PageDef {
  return {
    path: p.path,
    feature: f.namespace,
    load: async () => {
      // The page's first data beside its code, never instead of it: a failed prefetch leaves it to the page.
      if (p.prefetch && (!p.auth || member())) void p.prefetch().catch(() => {});
      return (await Promise.all([p.load(), loadNamespace(f.namespace), ...(p.borrows ?? []).map(loadNamespace)]))[0];
    },
    auth: p.auth ?? false,
  };
}

/** Every page of the app, from the features' registrations (src/app/features.ts). */
export const PAGES: readonly PageDef[] = FEATURES.flatMap((f) => f.pages.map((p) => pageDef(f, p)));

/** The page a location shows, if any (the home tab is also served at `/`). */
export function pageAt(pathname: string): PageDef | undefined {
  const path = pathname === '/' ? HOME_PATH : pathname.replace(/\/+$/, '');
  return PAGES.find((p) => p.path === path);
}
