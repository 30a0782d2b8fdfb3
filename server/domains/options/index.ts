/** The public surface of this module: other code imports it only through this file. */

export * from './calls';
export { optionsDomain } from './domain';
export * from './engine';
export * from './migrations/0011_options';
export * from './ops';
export type { OptionServices } from './submit';
export { type OptionsTables, withOptions } from './tables';
export * from './topic';
