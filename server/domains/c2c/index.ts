/** The public surface of this module: other code imports it only through this file. */

export { type C2cAdSaveInput, closeAd, listAds, ownAds, parsePayMethods, saveAd } from './ads';
export * from './calls';
export * from './console';
export { c2cDomain } from './domain';
export * from './expiry';
export * from './merchants';
export * from './migrations/0017_c2c';
export * from './ops';
export { addOrder, type C2cOrderAddInput, listOrders, orderInfo } from './orders';
export * from './otc-url';
export * from './sealed';
export { type C2cOrderRow, type C2cServices, c2cLedgerIds, orderSn } from './services';
export { type C2cTables, withC2c } from './tables';
export * from './topic';
export * from './transitions';
