import type strings from '../../../locales/en/leverdetail.json';
import type { Feature } from '../../lib/feature';

export const leverDetail: Feature = {
  namespace: 'leverdetail',
  pages: [
    // Details, rules and the re-check are their own feature and table (leverdetail): the tab does not load them.
    { path: '/pages/lever/info', load: () => import('./pages/lever/info'), auth: true },
    // The lever rule page (an addition, like option/rule); public, like the rules.
    { path: '/pages/lever/rule', load: () => import('./pages/lever/rule') },
  ],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    leverdetail: typeof strings;
  }
}
