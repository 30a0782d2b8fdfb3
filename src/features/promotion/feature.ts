import type strings from '../../../locales/en/promotion.json';
import type { Feature } from '../../lib/feature';

export const promotion: Feature = {
  namespace: 'promotion',
  pages: [{ path: '/pages/promotion/index', load: () => import('./pages/promotion/index'), auth: true }],
  menu: [{ at: 4, path: '/pages/promotion/index', labelKey: 'menu.referral', icon: 'userPlus' }],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    promotion: typeof strings;
  }
}
