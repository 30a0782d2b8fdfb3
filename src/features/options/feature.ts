import type strings from '../../../locales/en/options.json';
import type { Feature } from '../../lib/feature';

export const options: Feature = {
  namespace: 'options',
  pages: [
    // The Option tab and its pages show the market feature's live price marks, so they load that table too.
    {
      path: '/pages/option/detail',
      load: () => import('./pages/option/detail'),
      auth: true,
      borrows: ['market'],
      prefetch: async () => (await import('./queries')).prefetchTerms(),
    },
    {
      path: '/pages/option/simulator',
      load: () => import('./pages/option/simulator'),
      auth: true,
      borrows: ['market'],
      prefetch: async () => (await import('./queries')).prefetchTerms(),
    },
    { path: '/pages/option/info', load: () => import('./pages/option/info'), auth: true },
    // The option rule page (an addition: RULES.md publishes each product's rules in the app); public, like the rules.
    { path: '/pages/option/rule', load: () => import('./pages/option/rule') },
  ],
  tabs: [{ at: 3, path: '/pages/option/detail', labelKey: 'tabs.option', icon: 'option' }],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    options: typeof strings;
  }
}
