/** The public surface of this module: other code imports it only through this file. */

export { type ReferralCallServices, referralHandlers } from './calls';
export { referralDomain } from './domain';
export { maskedName } from './invites';
export * from './migrations/0020_referral';
export { referralOps, runPartnersCommand, runReferralCommand } from './ops';
export {
  defaultShare,
  grantPartner,
  listPartners,
  revokePartner,
  setBonus,
  setDefaultShare,
  setPartnerRatio,
  termsOf,
} from './partners';
export {
  payRebates,
  REBATES_AFTER_KEY,
  type RebateOptions,
  type RebateResult,
  type ReferralServices,
  referralLedgerIds,
  referralRebatesJob,
  sourceOf,
  TRADING_FEE_ENTRIES,
} from './rebates';
export { type ReferralPartnerRow, type ReferralRebateRow, type ReferralTables, withReferral } from './tables';
