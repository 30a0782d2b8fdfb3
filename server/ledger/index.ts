/** The public surface of this module: other code imports it only through this file. */
export * from './accounts';
export * from './amounts';
export * from './consistency';
export * from './edge';
export { isLedgerError, LedgerError } from './errors';
export * from './ledger';
export * from './migrations/0003_ledger';
export * from './ops';
export * from './platform-principal';
