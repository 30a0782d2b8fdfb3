import type strings from '../../../locales/en/notice.json';
import type { Feature } from '../../lib/feature';

export const notice: Feature = {
  namespace: 'notice',
  pages: [
    { path: '/pages/notice/index', load: () => import('./pages/notice/index') },
    { path: '/pages/index/notice/notice', load: () => import('./pages/index/notice/notice') },
  ],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    notice: typeof strings;
  }
}
