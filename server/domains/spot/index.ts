/** The public surface of this module: other code imports it only through this file. */

export * from './calls';
export { spotDomain } from './domain';
export * from './engine';
export * from './migrations/0010_spot';
export * from './ops';
export type { SpotServices } from './place';
export { type SpotTables, withSpot } from './tables';
export * from './topic';
