import type strings from '../../../locales/en/identity.json';
import type { Feature } from '../../lib/feature';

export const identity: Feature = {
  namespace: 'identity',
  pages: [
    { path: '/pages/verification/index', load: () => import('./pages/verification/index'), auth: true },
    { path: '/pages/verification/basic', load: () => import('./pages/verification/basic'), auth: true },
    { path: '/pages/verification/advanced', load: () => import('./pages/verification/advanced'), auth: true },
    { path: '/pages/verification/agree', load: () => import('./pages/verification/agree'), auth: true },
  ],
  menu: [{ at: 5, path: '/pages/verification/index', labelKey: 'menu.kyc', icon: 'user' }],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    identity: typeof strings;
  }
}
