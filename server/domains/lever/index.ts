/** The public surface of this module: other code imports it only through this file. */

export * from './calls';
export { contractTransferable, type MarkOf, refuseBackedCrossMargin } from './cross-backing';
export { leverDomain } from './domain';
export * from './engine';
export * from './migrations/0012_lever';
export * from './migrations/0027_lever_parts';
export * from './ops';
export type { LeverServices } from './submit';
export { type LeverTables, withLever } from './tables';
export { LEVER_QUOTE } from './terms';
export * from './topic';
