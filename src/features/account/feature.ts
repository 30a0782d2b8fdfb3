import type strings from '../../../locales/en/account.json';
import type { Feature } from '../../lib/feature';

export const account: Feature = {
  namespace: 'account',
  pages: [
    { path: '/pages/user/login/login', load: () => import('./pages/user/login/login') },
    { path: '/pages/user/register', load: () => import('./pages/user/register') },
    { path: '/pages/user/choose', load: () => import('./pages/user/choose') },
    { path: '/pages/user/forgetPassword', load: () => import('./pages/user/forgetPassword') },
    { path: '/pages/user/agree', load: () => import('./pages/user/agree') },
    { path: '/pages/user/agree/agree', load: () => import('./pages/user/agree/agree') },
    {
      path: '/pages/user/privacyAgreement/userAgreement',
      load: () => import('./pages/user/privacyAgreement/userAgreement'),
    },
    {
      path: '/pages/user/privacyAgreement/privacyAgreement',
      load: () => import('./pages/user/privacyAgreement/privacyAgreement'),
    },
    { path: '/pages/settings/index', load: () => import('./pages/settings/index') },
    { path: '/pages/settings/language/language', load: () => import('./pages/settings/language/language') },
    { path: '/pages/settings/account/index', load: () => import('./pages/settings/account/index'), auth: true },
    { path: '/pages/settings/security/index', load: () => import('./pages/settings/security/index'), auth: true },
    {
      path: '/pages/settings/security/changePassword',
      load: () => import('./pages/settings/security/changePassword'),
      auth: true,
    },
    {
      path: '/pages/settings/security/changePayPassword',
      load: () => import('./pages/settings/security/changePayPassword'),
      auth: true,
    },
  ],
  menu: [
    { at: 6, path: '/pages/settings/security/index', labelKey: 'menu.security', icon: 'shield' },
    { at: 11, path: '/pages/settings/index', labelKey: 'menu.settings', icon: 'settings' },
  ],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    account: typeof strings;
  }
}
