import type strings from '../../../locales/en/help.json';
import type { Feature } from '../../lib/feature';

export const help: Feature = {
  namespace: 'help',
  pages: [
    { path: '/pages/help/center/center', load: () => import('./pages/help/center/center') },
    { path: '/pages/help/center/detail', load: () => import('./pages/help/center/detail') },
  ],
  menu: [{ at: 9, path: '/pages/help/center/center', labelKey: 'menu.help', icon: 'info' }],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    help: typeof strings;
  }
}
