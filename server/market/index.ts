/** The public surface of this module: other code imports it only through this file. */
export * from './feed';
export * from './instruments';
export * from './live/binance';
export * from './live/composite';
export * from './migrations/0002_market';
export * from './migrations/0009_price_chain';
export * from './price-chain';
export * from './recorder';
export * from './shared/redis-bus';
export * from './shared/redis-tick-source';
export * from './simulator';
