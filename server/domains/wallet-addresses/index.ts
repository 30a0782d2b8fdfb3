/** The public surface of this module: other code imports it only through this file. */

export * from './calls';
export { walletAddressesDomain } from './domain';
export { type WalletAddressesTables, withWalletAddresses } from './tables';
