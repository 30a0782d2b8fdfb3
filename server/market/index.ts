/** The public surface of this module: other code imports it only through this file. */
export * from './feed';
export * from './instruments';
export * from './listing/coins';
export { LISTED_SIGMA_PER_MINUTE, listingParameters } from './listing/parameters';
export * from './listing/registry';
export * from './listing/watcher';
export * from './live/binance';
export * from './live/composite';
export * from './migrations/0002_market';
export * from './migrations/0009_price_chain';
export * from './migrations/0014_listed_coins';
export * from './price-chain';
export * from './recorder';
export * from './shared/redis-bus';
export * from './shared/redis-tick-source';
export * from './simulator';
export { marketSnapshotOf } from './snapshot';
export { type NewPriceTick, type PriceRecordTables, withPriceRecord } from './tables';
