import type { ComponentType } from 'react';
import { HOME_PATH } from '../lib/first-route';
import { type FeatureNamespace, loadNamespace } from '../lib/i18n';

/**
 * A page of the app: its spec path under /pages/, its lazily loaded module and whether it needs a session. Loading
 * a page loads its module and its feature's translations (in the active language) together.
 */
export interface PageDef {
  path: string;
  feature: FeatureNamespace;
  load: () => Promise<{ default: ComponentType }>;
  auth: boolean;
}

const page = (
  path: string,
  feature: FeatureNamespace,
  load: () => Promise<{ default: ComponentType }>,
  auth = false,
  /** Other features' namespaces the page shows components of (their texts load with it). */
  borrows: readonly FeatureNamespace[] = [],
): PageDef => ({
  path: `/pages/${path}`,
  feature,
  load: async () => (await Promise.all([load(), loadNamespace(feature), ...borrows.map(loadNamespace)]))[0],
  auth,
});

/** Every page of the app. */
export const PAGES: readonly PageDef[] = [
  page('index/index', 'market', () => import('../features/market/pages/index/index')),
  page('trade/kline', 'market', () => import('../features/market/pages/trade/kline')),
  // The Spot tab shows the market feature's live price marks, so it loads that table too.
  page('trade/index', 'spot', () => import('../features/spot/pages/trade/index'), true, ['market']),
  // The Option tab and its pages show the market feature's live price marks, so they load that table too.
  page('option/detail', 'options', () => import('../features/options/pages/option/detail'), true, ['market']),
  page('option/simulator', 'options', () => import('../features/options/pages/option/simulator'), true, ['market']),
  page('option/info', 'options', () => import('../features/options/pages/option/info'), true),
  // The option rule page (an addition: RULES.md publishes each product's rules in the app); public, like the rules.
  page('option/rule', 'options', () => import('../features/options/pages/option/rule')),
  // The Lever tab and its simulator show the market feature's live price marks, so they load that table too.
  page('lever/index', 'lever', () => import('../features/lever/pages/lever/index'), true, ['market']),
  page('lever/simulator', 'lever', () => import('../features/lever/pages/lever/simulator'), true, ['market']),
  // Details, rules and the re-check are their own feature and table (leverdetail): the tab does not load them.
  page('lever/info', 'leverdetail', () => import('../features/leverdetail/pages/lever/info'), true),
  // The lever rule page (an addition, like option/rule); public, like the rules.
  page('lever/rule', 'leverdetail', () => import('../features/leverdetail/pages/lever/rule')),
  page('user/login/login', 'account', () => import('../features/account/pages/user/login/login')),
  page('user/register', 'account', () => import('../features/account/pages/user/register')),
  page('user/choose', 'account', () => import('../features/account/pages/user/choose')),
  page('user/forgetPassword', 'account', () => import('../features/account/pages/user/forgetPassword')),
  page('user/agree', 'account', () => import('../features/account/pages/user/agree')),
  page('user/agree/agree', 'account', () => import('../features/account/pages/user/agree/agree')),
  page(
    'user/privacyAgreement/userAgreement',
    'account',
    () => import('../features/account/pages/user/privacyAgreement/userAgreement'),
  ),
  page(
    'user/privacyAgreement/privacyAgreement',
    'account',
    () => import('../features/account/pages/user/privacyAgreement/privacyAgreement'),
  ),
  page('settings/index', 'account', () => import('../features/account/pages/settings/index')),
  page('settings/language/language', 'account', () => import('../features/account/pages/settings/language/language')),
  page('settings/account/index', 'account', () => import('../features/account/pages/settings/account/index'), true),
  page('settings/security/index', 'account', () => import('../features/account/pages/settings/security/index'), true),
  page(
    'settings/security/changePassword',
    'account',
    () => import('../features/account/pages/settings/security/changePassword'),
    true,
  ),
  page(
    'settings/security/changePayPassword',
    'account',
    () => import('../features/account/pages/settings/security/changePayPassword'),
    true,
  ),
  page('verification/index', 'identity', () => import('../features/identity/pages/verification/index'), true),
  page('verification/basic', 'identity', () => import('../features/identity/pages/verification/basic'), true),
  page('verification/advanced', 'identity', () => import('../features/identity/pages/verification/advanced'), true),
  page('verification/agree', 'identity', () => import('../features/identity/pages/verification/agree'), true),
  page('user/address/index', 'wallet', () => import('../features/wallet/pages/user/address/index'), true),
  page('user/address/create', 'wallet', () => import('../features/wallet/pages/user/address/create'), true),
  page('user/address/address', 'wallet', () => import('../features/wallet/pages/user/address/address'), true),
  page('bankbind/index', 'wallet', () => import('../features/wallet/pages/bankbind/index'), true),
  page('bankbind/addbank', 'wallet', () => import('../features/wallet/pages/bankbind/addbank'), true),
  page('assets/withdraw/bank/bank', 'wallet', () => import('../features/wallet/pages/assets/withdraw/bank/bank'), true),
  page('assets/deposit/index', 'funding', () => import('../features/funding/pages/assets/deposit/index'), true),
  page('assets/deposit/charge', 'funding', () => import('../features/funding/pages/assets/deposit/charge'), true),
  page('assets/withdraw/index', 'funding', () => import('../features/funding/pages/assets/withdraw/index'), true),
  page('assets/withdraw/detail', 'funding', () => import('../features/funding/pages/assets/withdraw/detail'), true),
  page('assets/index', 'wallet', () => import('../features/wallet/pages/assets/index'), true),
  page('assets/tradeAccount', 'wallet', () => import('../features/wallet/pages/assets/tradeAccount'), true),
  page('assets/record', 'wallet', () => import('../features/wallet/pages/assets/record'), true),
  page('assets/transfer/index', 'wallet', () => import('../features/wallet/pages/assets/transfer/index'), true),
  page('assets/transfer/record', 'wallet', () => import('../features/wallet/pages/assets/transfer/record'), true),
  // The valuation method (left menu): public; a logged-in user also sees the prices behind their own valuation.
  page('assets/valuation', 'wallet', () => import('../features/wallet/pages/assets/valuation')),
  // The Finance tab and the rules are public (products and rules are for everyone); buying and orders need a login.
  page('template/index', 'finance', () => import('../features/finance/pages/template/index')),
  page('finance/index', 'finance', () => import('../features/finance/pages/finance/index'), true),
  page('finance/buyPage', 'finance', () => import('../features/finance/pages/finance/buyPage'), true),
  page('finance/ordersPage', 'finance', () => import('../features/finance/pages/finance/ordersPage'), true),
  page('finance/rulePage', 'finance', () => import('../features/finance/pages/finance/rulePage')),
  // The projects and their rules are public; subscribing and the user's own subscriptions need a login.
  page('publication/index', 'ieo', () => import('../features/ieo/pages/publication/index')),
  page('publication/details', 'ieo', () => import('../features/ieo/pages/publication/details')),
  page('publication/purchase', 'ieo', () => import('../features/ieo/pages/publication/purchase'), true),
  // The listing polls (an addition to SPEC 2, our reading of `vote/set`): results are public, voting needs a login.
  page('publication/vote', 'vote', () => import('../features/vote/pages/publication/vote')),
  page('assets/ieo/index', 'ieo', () => import('../features/ieo/pages/assets/ieo/index'), true),
  page('assets/ieo/orderList', 'ieo', () => import('../features/ieo/pages/assets/ieo/orderList'), true),
  page('assets/ieo/orderDetail', 'ieo', () => import('../features/ieo/pages/assets/ieo/orderDetail'), true),
  // C2C: the ads are public (like the IEO projects); buying, orders and the merchant's pages need a login.
  page('assets/c2c/index', 'c2c', () => import('../features/c2c/pages/assets/c2c/index')),
  page('assets/c2c/buy', 'c2c', () => import('../features/c2c/pages/assets/c2c/buy'), true),
  page('assets/c2c/orderList', 'c2c', () => import('../features/c2c/pages/assets/c2c/orderList'), true),
  page('assets/c2c/orderDetail', 'c2c', () => import('../features/c2c/pages/assets/c2c/orderDetail'), true),
  page('assets/c2c/merchant', 'c2c', () => import('../features/c2c/pages/assets/c2c/merchant'), true),
  page('assets/c2c/adEdit', 'c2c', () => import('../features/c2c/pages/assets/c2c/adEdit'), true),
  page('notice/index', 'notice', () => import('../features/notice/pages/notice/index')),
  page('index/notice/notice', 'notice', () => import('../features/notice/pages/index/notice/notice')),
  page('help/center/center', 'help', () => import('../features/help/pages/help/center/center')),
  page('help/center/detail', 'help', () => import('../features/help/pages/help/center/detail')),
  // Customer service and C2C order chats (the chat feature); a conversation is its members' only.
  page('help/center/chat', 'chat', () => import('../features/chat/pages/help/center/chat'), true),
  page('help/center/chat2', 'chat', () => import('../features/chat/pages/help/center/chat2'), true),
  page('help/center/newchat', 'chat', () => import('../features/chat/pages/help/center/newchat'), true),
  page('help/center/otcChat', 'chat', () => import('../features/chat/pages/help/center/otcChat'), true),
  page('help/center/newotcChat', 'chat', () => import('../features/chat/pages/help/center/newotcChat'), true),
  page('promotion/index', 'promotion', () => import('../features/promotion/pages/promotion/index'), true),
];

/** The page a location shows, if any (the home tab is also served at `/`). */
export function pageAt(pathname: string): PageDef | undefined {
  const path = pathname === '/' ? HOME_PATH : pathname.replace(/\/+$/, '');
  return PAGES.find((p) => p.path === path);
}
