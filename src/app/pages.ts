import type { ComponentType } from 'react';

/** A page of the app: its spec path under /pages/, its lazily loaded module and whether it needs a session. */
export interface PageDef {
  path: string;
  load: () => Promise<{ default: ComponentType }>;
  auth: boolean;
}

const page = (path: string, load: PageDef['load'], auth = false): PageDef => ({ path: `/pages/${path}`, load, auth });

/** Every page that exists today. Later issues add theirs here; tab bar and menu follow automatically. */
export const PAGES: readonly PageDef[] = [
  page('index/index', () => import('../features/market/pages/index/index')),
  page('trade/kline', () => import('../features/market/pages/trade/kline')),
  page('user/login/login', () => import('../features/account/pages/user/login/login')),
  page('user/register', () => import('../features/account/pages/user/register')),
  page('user/choose', () => import('../features/account/pages/user/choose')),
  page('user/forgetPassword', () => import('../features/account/pages/user/forgetPassword')),
  page('user/agree', () => import('../features/account/pages/user/agree')),
  page('user/agree/agree', () => import('../features/account/pages/user/agree/agree')),
  page(
    'user/privacyAgreement/userAgreement',
    () => import('../features/account/pages/user/privacyAgreement/userAgreement'),
  ),
  page(
    'user/privacyAgreement/privacyAgreement',
    () => import('../features/account/pages/user/privacyAgreement/privacyAgreement'),
  ),
  page('settings/index', () => import('../features/account/pages/settings/index')),
  page('settings/language/language', () => import('../features/account/pages/settings/language/language')),
  page('settings/account/index', () => import('../features/account/pages/settings/account/index'), true),
  page('settings/security/index', () => import('../features/account/pages/settings/security/index'), true),
  page(
    'settings/security/changePassword',
    () => import('../features/account/pages/settings/security/changePassword'),
    true,
  ),
  page(
    'settings/security/changePayPassword',
    () => import('../features/account/pages/settings/security/changePayPassword'),
    true,
  ),
  page('verification/index', () => import('../features/identity/pages/verification/index'), true),
  page('verification/basic', () => import('../features/identity/pages/verification/basic'), true),
  page('verification/advanced', () => import('../features/identity/pages/verification/advanced'), true),
  page('verification/agree', () => import('../features/identity/pages/verification/agree'), true),
  page('user/address/index', () => import('../features/wallet/pages/user/address/index'), true),
  page('user/address/create', () => import('../features/wallet/pages/user/address/create'), true),
  page('user/address/address', () => import('../features/wallet/pages/user/address/address'), true),
  page('bankbind/index', () => import('../features/wallet/pages/bankbind/index'), true),
  page('bankbind/addbank', () => import('../features/wallet/pages/bankbind/addbank'), true),
  page('assets/withdraw/bank/bank', () => import('../features/wallet/pages/assets/withdraw/bank/bank'), true),
  page('assets/deposit/index', () => import('../features/funding/pages/assets/deposit/index'), true),
  page('assets/deposit/charge', () => import('../features/funding/pages/assets/deposit/charge'), true),
  page('assets/withdraw/index', () => import('../features/funding/pages/assets/withdraw/index'), true),
  page('assets/withdraw/detail', () => import('../features/funding/pages/assets/withdraw/detail'), true),
  page('assets/index', () => import('../features/wallet/pages/assets/index'), true),
  page('assets/tradeAccount', () => import('../features/wallet/pages/assets/tradeAccount'), true),
  page('assets/record', () => import('../features/wallet/pages/assets/record'), true),
  page('assets/transfer/index', () => import('../features/wallet/pages/assets/transfer/index'), true),
  page('assets/transfer/record', () => import('../features/wallet/pages/assets/transfer/record'), true),
];

const registered = new Set(PAGES.map((p) => p.path));

export const pageExists = (path: string): boolean => registered.has(path);
