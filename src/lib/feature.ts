import type { ComponentType } from 'react';
import type appEn from '../../locales/en/app.json';
import type { IconName } from '../components/Icon';
import type { FeatureNamespace } from './i18n';

/**
 * What a feature registers with the app (DESIGN: a new product touches its own folders plus one line in the client's
 * feature list, src/app/features.ts): its pages, its tabs and left-menu entries, and its strings. Each feature
 * exports one such value from its `feature.ts`. It is part of the shell every route loads, so it holds data only:
 * page modules load through `import()`, with their route.
 */
export interface Feature {
  /** The feature's strings (locales/<lang>/<namespace>.json), loaded with each of its pages. */
  namespace: FeatureNamespace;
  pages: readonly FeaturePage[];
  tabs?: readonly TabEntry[];
  menu?: readonly MenuEntry[];
}

export interface FeaturePage {
  /** Its route (SPEC 2: under /pages/); the module is the feature's pages/<the rest>.tsx. */
  path: `/pages/${string}`;
  load: () => Promise<{ default: ComponentType }>;
  /** Needs a session: the login guard applies (SPEC 4). */
  auth?: boolean;
  /** Other features' namespaces the page shows components of: their strings load with it. */
  borrows?: readonly FeatureNamespace[];
  /**
   * Asks for the data the page's first render waits for, while the page's code loads (issue 27: a trading tab opened
   * first showed its price header a round trip after its code had run). Only with a session on an `auth` page (a
   * guest goes to login instead). A failure here is the page's own query's to show: it asks again.
   */
  prefetch?: () => Promise<unknown>;
}

/** A tab of the tab bar (SPEC 2). `at` is its place, counted from 1 across all features. */
export interface TabEntry {
  at: number;
  path: `/pages/${string}`;
  labelKey: `tabs.${keyof typeof appEn.tabs}`;
  icon: IconName;
}

/** An entry of the left menu (SPEC 2). `at` is its place, counted from 1 across all features. */
export interface MenuEntry {
  at: number;
  path: `/pages/${string}`;
  labelKey: `menu.${keyof typeof appEn.menu}`;
  icon: IconName;
}
