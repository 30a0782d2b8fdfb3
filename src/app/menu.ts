import type { IconName } from '../components/Icon';

/** SPEC 2: the left menu, in order. */
export interface MenuEntry {
  path: string;
  labelKey:
    | 'menu.deposit'
    | 'menu.quickDeposit'
    | 'menu.withdraw'
    | 'menu.referral'
    | 'menu.kyc'
    | 'menu.security'
    | 'menu.address'
    | 'menu.contact'
    | 'menu.help'
    | 'menu.valuation'
    | 'menu.settings'
    | 'menu.history';
  icon: IconName;
  /** Needs a session (the login guard applies). */
  auth: boolean;
}

export const MENU: readonly MenuEntry[] = [
  { path: '/pages/assets/deposit/index', labelKey: 'menu.deposit', icon: 'assets', auth: true },
  { path: '/pages/assets/deposit/charge', labelKey: 'menu.quickDeposit', icon: 'assets', auth: true },
  { path: '/pages/assets/withdraw/index', labelKey: 'menu.withdraw', icon: 'assets', auth: true },
  { path: '/pages/promotion/index', labelKey: 'menu.referral', icon: 'userPlus', auth: true },
  { path: '/pages/verification/index', labelKey: 'menu.kyc', icon: 'user', auth: true },
  { path: '/pages/settings/security/index', labelKey: 'menu.security', icon: 'shield', auth: true },
  { path: '/pages/user/address/index', labelKey: 'menu.address', icon: 'tag', auth: true },
  { path: '/pages/help/center/chat', labelKey: 'menu.contact', icon: 'mail', auth: false },
  { path: '/pages/help/center/center', labelKey: 'menu.help', icon: 'info', auth: false },
  { path: '/pages/assets/valuation', labelKey: 'menu.valuation', icon: 'layers', auth: false },
  { path: '/pages/settings/index', labelKey: 'menu.settings', icon: 'settings', auth: false },
  { path: '/pages/assets/record', labelKey: 'menu.history', icon: 'clock', auth: true },
];
