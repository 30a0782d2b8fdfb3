/** The public surface of this module: other code imports it only through this file. */
export * from './calls';
export * from './migrations/0005_cards_addresses';
