import type strings from '../../../locales/en/ieo.json';
import type { Feature } from '../../lib/feature';

export const ieo: Feature = {
  namespace: 'ieo',
  pages: [
    // The projects and their rules are public; subscribing and the user's own subscriptions need a login.
    { path: '/pages/publication/index', load: () => import('./pages/publication/index') },
    { path: '/pages/publication/details', load: () => import('./pages/publication/details') },
    { path: '/pages/publication/purchase', load: () => import('./pages/publication/purchase'), auth: true },
    { path: '/pages/assets/ieo/index', load: () => import('./pages/assets/ieo/index'), auth: true },
    { path: '/pages/assets/ieo/orderList', load: () => import('./pages/assets/ieo/orderList'), auth: true },
    { path: '/pages/assets/ieo/orderDetail', load: () => import('./pages/assets/ieo/orderDetail'), auth: true },
  ],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    ieo: typeof strings;
  }
}
