import type { Feature } from '../../lib/feature';

export const notice: Feature = {
  namespace: 'notice',
  pages: [
    { path: '/pages/notice/index', load: () => import('./pages/notice/index') },
    { path: '/pages/index/notice/notice', load: () => import('./pages/index/notice/notice') },
  ],
};
