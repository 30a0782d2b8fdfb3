import type strings from '../../../locales/en/lever.json';
import type { Feature } from '../../lib/feature';

export const lever: Feature = {
  namespace: 'lever',
  pages: [
    // The Lever tab and its simulator show the market feature's live price marks, so they load that table too.
    {
      path: '/pages/lever/index',
      load: () => import('./pages/lever/index'),
      auth: true,
      borrows: ['market'],
      prefetch: async () => (await import('./queries')).prefetchDeal('real'),
    },
    {
      path: '/pages/lever/simulator',
      load: () => import('./pages/lever/simulator'),
      auth: true,
      borrows: ['market'],
      prefetch: async () => (await import('./queries')).prefetchDeal('simulator'),
    },
  ],
  tabs: [{ at: 4, path: '/pages/lever/index', labelKey: 'tabs.lever', icon: 'lever' }],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    lever: typeof strings;
  }
}
