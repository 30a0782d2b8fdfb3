import type strings from '../../../locales/en/spot.json';
import type { Feature } from '../../lib/feature';

export const spot: Feature = {
  namespace: 'spot',
  pages: [
    // The Spot tab shows the market feature's live price marks, so it loads that table too.
    {
      path: '/pages/trade/index',
      load: () => import('./pages/trade/index'),
      auth: true,
      borrows: ['market'],
      prefetch: async () => (await import('./queries')).prefetchConfig(),
    },
  ],
  tabs: [{ at: 2, path: '/pages/trade/index', labelKey: 'tabs.spot', icon: 'spot' }],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    spot: typeof strings;
  }
}
