/** The public surface of this module: other code imports it only through this file. */

export * from './calls';
export * from './data-key';
export { bankCardsDomain } from './domain';
export * from './migrations/0005_cards_addresses';
export * from './migrations/0008_card_encryption';
export * from './ops';
export { type BankCardsTables, withBankCards } from './tables';
export * from './vault';
