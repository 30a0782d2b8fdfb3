/** The public surface of this module: other code imports it only through this file. */

export * from './accrual';
export { buyFinance, type FinanceServices } from './buy';
export * from './calls';
export { financeDomain } from './domain';
export * from './migrations/0013_finance';
export * from './ops';
export { redeemEarly } from './redeem';
export { type FinanceTables, withFinance } from './tables';
