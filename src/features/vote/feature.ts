import type { Feature } from '../../lib/feature';

export const vote: Feature = {
  namespace: 'vote',
  pages: [
    // The listing polls (an addition to SPEC 2, our reading of `vote/set`): results are public, voting needs a login.
    { path: '/pages/publication/vote', load: () => import('./pages/publication/vote') },
  ],
};
