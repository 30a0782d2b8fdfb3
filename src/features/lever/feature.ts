import type { Feature } from '../../lib/feature';

export const lever: Feature = {
  namespace: 'lever',
  pages: [
    // The Lever tab and its simulator show the market feature's live price marks, so they load that table too.
    { path: '/pages/lever/index', load: () => import('./pages/lever/index'), auth: true, borrows: ['market'] },
    { path: '/pages/lever/simulator', load: () => import('./pages/lever/simulator'), auth: true, borrows: ['market'] },
  ],
  tabs: [{ at: 4, path: '/pages/lever/index', labelKey: 'tabs.lever', icon: 'lever' }],
};
