import { describe, expect, it } from 'vitest';
import { MENU } from './menu';
import { PAGES } from './pages';
import { TABS } from './tabs';

const registered = new Set(PAGES.map((p) => p.path));

/**
 * Every page SPEC 2 names, by its route under /pages/ (issue 14: all exist and are reachable). /choose-location and
 * /open-location are the seed platform's map pickers; the README says why this app has none.
 */
const SPEC_PAGES = [
  'index/index',
  'trade/index',
  'option/detail',
  'lever/index',
  'template/index',
  'assets/index',
  'settings/index',
  'settings/language/language',
  'settings/account/index',
  'settings/security/index',
  'settings/security/changePassword',
  'settings/security/changePayPassword',
  'user/login/login',
  'user/agree',
  'user/agree/agree',
  'user/register',
  'user/choose',
  'user/forgetPassword',
  'user/privacyAgreement/userAgreement',
  'user/privacyAgreement/privacyAgreement',
  'user/address/address',
  'user/address/create',
  'user/address/index',
  'notice/index',
  'index/notice/notice',
  'publication/index',
  'publication/details',
  'publication/purchase',
  'trade/kline',
  'option/info',
  'option/simulator',
  'lever/info',
  'lever/simulator',
  'verification/index',
  'verification/basic',
  'verification/advanced',
  'verification/agree',
  'assets/tradeAccount',
  'assets/transfer/index',
  'assets/transfer/record',
  'assets/c2c/index',
  'assets/c2c/buy',
  'assets/c2c/orderList',
  'assets/c2c/orderDetail',
  'assets/ieo/index',
  'assets/ieo/orderList',
  'assets/ieo/orderDetail',
  'assets/deposit/index',
  'assets/deposit/charge',
  'assets/withdraw/index',
  'assets/withdraw/detail',
  'assets/withdraw/bank/bank',
  'assets/record',
  'finance/index',
  'finance/buyPage',
  'finance/ordersPage',
  'finance/rulePage',
  'promotion/index',
  'help/center/center',
  'help/center/chat',
  'help/center/chat2',
  'help/center/newchat',
  'help/center/otcChat',
  'help/center/newotcChat',
  'help/center/detail',
  'bankbind/index',
  'bankbind/addbank',
];

describe('SPEC 2 pages', () => {
  it('registers every page SPEC 2 names', () => {
    expect(SPEC_PAGES.filter((p) => !registered.has(`/pages/${p}`))).toEqual([]);
  });

  it('leads every one of the six tabs and twelve left-menu entries to a registered page', () => {
    expect(TABS).toHaveLength(6);
    expect(MENU).toHaveLength(12);
    expect([...TABS, ...MENU].filter((e) => !registered.has(e.path)).map((e) => e.path)).toEqual([]);
  });

  it('registers each page once', () => {
    expect(registered.size).toBe(PAGES.length);
  });
});
