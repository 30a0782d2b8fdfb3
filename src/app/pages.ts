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
  page('index/index', () => import('../routes/index/index')),
  page('trade/kline', () => import('../routes/trade/kline')),
  page('user/login/login', () => import('../routes/user/login/login')),
  page('user/register', () => import('../routes/user/register')),
  page('user/choose', () => import('../routes/user/choose')),
  page('user/forgetPassword', () => import('../routes/user/forgetPassword')),
  page('user/agree', () => import('../routes/user/agree')),
  page('user/agree/agree', () => import('../routes/user/agree/agree')),
  page('user/privacyAgreement/userAgreement', () => import('../routes/user/privacyAgreement/userAgreement')),
  page('user/privacyAgreement/privacyAgreement', () => import('../routes/user/privacyAgreement/privacyAgreement')),
  page('settings/index', () => import('../routes/settings/index')),
  page('settings/language/language', () => import('../routes/settings/language/language')),
  page('settings/account/index', () => import('../routes/settings/account/index'), true),
  page('settings/security/index', () => import('../routes/settings/security/index'), true),
  page('settings/security/changePassword', () => import('../routes/settings/security/changePassword'), true),
  page('settings/security/changePayPassword', () => import('../routes/settings/security/changePayPassword'), true),
  page('verification/index', () => import('../routes/verification/index'), true),
  page('verification/basic', () => import('../routes/verification/basic'), true),
  page('verification/advanced', () => import('../routes/verification/advanced'), true),
  page('verification/agree', () => import('../routes/verification/agree'), true),
  page('user/address/index', () => import('../routes/user/address/index'), true),
  page('user/address/create', () => import('../routes/user/address/create'), true),
  page('user/address/address', () => import('../routes/user/address/address'), true),
  page('bankbind/index', () => import('../routes/bankbind/index'), true),
  page('bankbind/addbank', () => import('../routes/bankbind/addbank'), true),
  page('assets/withdraw/bank/bank', () => import('../routes/assets/withdraw/bank/bank'), true),
  page('assets/deposit/index', () => import('../routes/assets/deposit/index'), true),
  page('assets/deposit/charge', () => import('../routes/assets/deposit/charge'), true),
  page('assets/withdraw/index', () => import('../routes/assets/withdraw/index'), true),
  page('assets/withdraw/detail', () => import('../routes/assets/withdraw/detail'), true),
  page('assets/index', () => import('../routes/assets/index'), true),
  page('assets/tradeAccount', () => import('../routes/assets/tradeAccount'), true),
  page('assets/record', () => import('../routes/assets/record'), true),
  page('assets/transfer/index', () => import('../routes/assets/transfer/index'), true),
  page('assets/transfer/record', () => import('../routes/assets/transfer/record'), true),
];

const registered = new Set(PAGES.map((p) => p.path));

export const pageExists = (path: string): boolean => registered.has(path);
