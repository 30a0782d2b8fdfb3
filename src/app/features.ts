import { account } from '../features/account/feature';
import { alerts } from '../features/alerts/feature';
import { awaiting } from '../features/awaiting/feature';
import { c2c } from '../features/c2c/feature';
import { chat } from '../features/chat/feature';
import { finance } from '../features/finance/feature';
import { funding } from '../features/funding/feature';
import { help } from '../features/help/feature';
import { identity } from '../features/identity/feature';
import { ieo } from '../features/ieo/feature';
import { kline } from '../features/kline/feature';
import { lever } from '../features/lever/feature';
import { leverDetail } from '../features/leverdetail/feature';
import { market } from '../features/market/feature';
import { notice } from '../features/notice/feature';
import { options } from '../features/options/feature';
import { promotion } from '../features/promotion/feature';
import { spot } from '../features/spot/feature';
import { vote } from '../features/vote/feature';
import { wallet } from '../features/wallet/feature';
import type { Feature } from '../lib/feature';

/**
 * Every feature of the app: the router's pages, the tab bar and the left menu are composed from this list
 * (src/app/pages.ts, tabs.ts, menu.ts). A new feature adds its line here.
 */
export const FEATURES: readonly Feature[] = [
  market,
  kline,
  spot,
  options,
  lever,
  leverDetail,
  account,
  identity,
  wallet,
  funding,
  finance,
  ieo,
  vote,
  c2c,
  notice,
  help,
  chat,
  promotion,
  awaiting,
  alerts,
];

/** A page's module as the build names it: the feature's pages/ folder holds one module per route. */
export const pageModule = (feature: Feature, path: string): string =>
  `src/features/${feature.namespace}/pages/${path.replace(/^\/pages\//, '')}.tsx`;
