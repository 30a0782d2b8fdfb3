import type strings from '../../../locales/en/wallet.json';
import type { Feature } from '../../lib/feature';

export const wallet: Feature = {
  namespace: 'wallet',
  pages: [
    { path: '/pages/user/address/index', load: () => import('./pages/user/address/index'), auth: true },
    { path: '/pages/user/address/create', load: () => import('./pages/user/address/create'), auth: true },
    { path: '/pages/user/address/address', load: () => import('./pages/user/address/address'), auth: true },
    { path: '/pages/bankbind/index', load: () => import('./pages/bankbind/index'), auth: true },
    { path: '/pages/bankbind/addbank', load: () => import('./pages/bankbind/addbank'), auth: true },
    { path: '/pages/assets/withdraw/bank/bank', load: () => import('./pages/assets/withdraw/bank/bank'), auth: true },
    { path: '/pages/assets/index', load: () => import('./pages/assets/index'), auth: true },
    { path: '/pages/assets/tradeAccount', load: () => import('./pages/assets/tradeAccount'), auth: true },
    { path: '/pages/assets/record', load: () => import('./pages/assets/record'), auth: true },
    { path: '/pages/assets/transfer/index', load: () => import('./pages/assets/transfer/index'), auth: true },
    { path: '/pages/assets/transfer/record', load: () => import('./pages/assets/transfer/record'), auth: true },
    // The valuation method (left menu): public; a logged-in user also sees the prices behind their own valuation.
    { path: '/pages/assets/valuation', load: () => import('./pages/assets/valuation') },
  ],
  tabs: [{ at: 6, path: '/pages/assets/index', labelKey: 'tabs.assets', icon: 'assets' }],
  menu: [
    { at: 7, path: '/pages/user/address/index', labelKey: 'menu.address', icon: 'tag' },
    { at: 10, path: '/pages/assets/valuation', labelKey: 'menu.valuation', icon: 'layers' },
    { at: 12, path: '/pages/assets/record', labelKey: 'menu.history', icon: 'clock' },
  ],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    wallet: typeof strings;
  }
}
