import type strings from '../../../locales/en/funding.json';
import type { Feature } from '../../lib/feature';

export const funding: Feature = {
  namespace: 'funding',
  pages: [
    { path: '/pages/assets/deposit/index', load: () => import('./pages/assets/deposit/index'), auth: true },
    { path: '/pages/assets/deposit/charge', load: () => import('./pages/assets/deposit/charge'), auth: true },
    { path: '/pages/assets/withdraw/index', load: () => import('./pages/assets/withdraw/index'), auth: true },
    { path: '/pages/assets/withdraw/detail', load: () => import('./pages/assets/withdraw/detail'), auth: true },
  ],
  menu: [
    { at: 1, path: '/pages/assets/deposit/index', labelKey: 'menu.deposit', icon: 'assets' },
    { at: 2, path: '/pages/assets/deposit/charge', labelKey: 'menu.quickDeposit', icon: 'assets' },
    { at: 3, path: '/pages/assets/withdraw/index', labelKey: 'menu.withdraw', icon: 'assets' },
  ],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    funding: typeof strings;
  }
}
