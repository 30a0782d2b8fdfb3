import type { Feature } from '../../lib/feature';

export const spot: Feature = {
  namespace: 'spot',
  pages: [
    // The Spot tab shows the market feature's live price marks, so it loads that table too.
    { path: '/pages/trade/index', load: () => import('./pages/trade/index'), auth: true, borrows: ['market'] },
  ],
  tabs: [{ at: 2, path: '/pages/trade/index', labelKey: 'tabs.spot', icon: 'spot' }],
};
