/** The public surface of this module: other code imports it only through this file. */

export { walletLoginHandlers } from './calls';
export { walletLoginDomain } from './domain';
export * from './migrations/0022_wallet_login';
export type { WalletLoginServices } from './nonces';
export { type WalletSite, walletSiteOf } from './site';
