/** The public surface of this module: other code imports it only through this file. */

export * from './calls';
export * from './chain';
export { marketDomain } from './domain';
export * from './ops';
export { type MarketTables, withMarket } from './tables';
export * from './topics';
