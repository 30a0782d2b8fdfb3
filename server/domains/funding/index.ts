/** The public surface of this module: other code imports it only through this file. */

export * from './calls';
export { fundingDomain } from './domain';
export * from './migrations/0007_deposits_withdrawals';
export * from './ops';
export { approveDeposit, approveWithdrawal, rejectDeposit, rejectWithdrawal } from './review';
export { type FundingTables, withFunding } from './tables';
