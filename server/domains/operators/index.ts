/** The public surface of this module: other code imports it only through this file. */

export * from './accounts';
export * from './console';
export { operatorsDomain } from './domain';
export * from './login';
export * from './migrations/0019_operators';
export * from './ops';
export * from './register';
export * from './secrets';
export * from './sessions';
export { type OperatorsTables, withOperators } from './tables';
export * from './totp';
export * from './views';
