import type strings from '../../../locales/en/market.json';
import type { Feature } from '../../lib/feature';

export const market: Feature = {
  namespace: 'market',
  pages: [{ path: '/pages/index/index', load: () => import('./pages/index/index') }],
  tabs: [{ at: 1, path: '/pages/index/index', labelKey: 'tabs.home', icon: 'home' }],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    market: typeof strings;
  }
}
