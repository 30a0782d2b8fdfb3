/** The public surface of this module: other code imports it only through this file. */
export * from './accounts';
export * from './amounts';
export * from './consistency';
export { CURRENCIES_POLL_MS, currenciesJob, loadCurrencies } from './currencies';
export * from './edge';
export { isLedgerError, LedgerError } from './errors';
export * from './ledger';
export * from './migrations/0003_ledger';
export * from './migrations/0026_ledger_currencies';
export * from './ops';
export * from './platform-principal';
export { type LedgerTables, withLedger } from './tables';
