import type strings from '../../../locales/en/finance.json';
import type { Feature } from '../../lib/feature';

export const finance: Feature = {
  namespace: 'finance',
  pages: [
    // The Finance tab and the rules are public (products and rules are for everyone); buying and orders need a login.
    { path: '/pages/template/index', load: () => import('./pages/template/index') },
    { path: '/pages/finance/index', load: () => import('./pages/finance/index'), auth: true },
    { path: '/pages/finance/buyPage', load: () => import('./pages/finance/buyPage'), auth: true },
    { path: '/pages/finance/ordersPage', load: () => import('./pages/finance/ordersPage'), auth: true },
    { path: '/pages/finance/rulePage', load: () => import('./pages/finance/rulePage') },
  ],
  tabs: [{ at: 5, path: '/pages/template/index', labelKey: 'tabs.finance', icon: 'finance' }],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    finance: typeof strings;
  }
}
