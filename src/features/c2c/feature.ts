import type strings from '../../../locales/en/c2c.json';
import type { Feature } from '../../lib/feature';

export const c2c: Feature = {
  namespace: 'c2c',
  pages: [
    // C2C: the ads are public (like the IEO projects); buying, orders and the merchant's pages need a login.
    { path: '/pages/assets/c2c/index', load: () => import('./pages/assets/c2c/index') },
    { path: '/pages/assets/c2c/buy', load: () => import('./pages/assets/c2c/buy'), auth: true },
    { path: '/pages/assets/c2c/orderList', load: () => import('./pages/assets/c2c/orderList'), auth: true },
    { path: '/pages/assets/c2c/orderDetail', load: () => import('./pages/assets/c2c/orderDetail'), auth: true },
    { path: '/pages/assets/c2c/merchant', load: () => import('./pages/assets/c2c/merchant'), auth: true },
    { path: '/pages/assets/c2c/adEdit', load: () => import('./pages/assets/c2c/adEdit'), auth: true },
  ],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    c2c: typeof strings;
  }
}
