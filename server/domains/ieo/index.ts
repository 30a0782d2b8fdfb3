/** The public surface of this module: other code imports it only through this file. */

export { applyIeo, type IeoServices } from './apply';
export * from './calls';
export { ieoDomain } from './domain';
export * from './migrations/0015_ieo';
export * from './ops';
export { payIeo } from './pay';
export * from './steps';
export { type IeoTables, withIeo } from './tables';
export * from './topic';
