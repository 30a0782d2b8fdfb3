import type strings from '../../../locales/en/vote.json';
import type { Feature } from '../../lib/feature';

export const vote: Feature = {
  namespace: 'vote',
  pages: [
    // The listing polls (an addition to SPEC 2, our reading of `vote/set`): results are public, voting needs a login.
    { path: '/pages/publication/vote', load: () => import('./pages/publication/vote') },
  ],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    vote: typeof strings;
  }
}
