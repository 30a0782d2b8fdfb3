import type { Feature } from '../../lib/feature';

export const help: Feature = {
  namespace: 'help',
  pages: [
    { path: '/pages/help/center/center', load: () => import('./pages/help/center/center') },
    { path: '/pages/help/center/detail', load: () => import('./pages/help/center/detail') },
  ],
  menu: [{ at: 9, path: '/pages/help/center/center', labelKey: 'menu.help', icon: 'info' }],
};
