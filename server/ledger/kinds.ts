/*
 * The ledger's account types and books: the columns of its tables (tables.ts) are typed with them, so they import
 * nothing; the ledger re-exports them (server/ledger/accounts.ts).
 */

/** The four account types a user holds per currency (SPEC 3). */
export const USER_ACCOUNT_TYPES = ['coin', 'option', 'contract', 'trust'] as const;
export type UserAccountType = (typeof USER_ACCOUNT_TYPES)[number];

/**
 * The platform's side of every posting: where deposits come from and withdrawals go, what fees and penalties
 * earn, and where practice money is issued from. Their balances may be negative (deposits clearing is, by design).
 */
export const PLATFORM_ACCOUNT_TYPES = [
  'deposits_clearing',
  'withdrawals_clearing',
  'fees',
  'penalties',
  'simulator_funding',
  /** The platform's side of spot trades: it buys and sells at the recorded price (RULES "Spot"). */
  'spot_desk',
  /** Pays option wins and receives lost stakes (RULES "Options"); one per book, so practice money stays practice. */
  'options_payout',
  /** The platform's side of lever positions: pays their gains and receives their losses (RULES "Lever"). */
  'lever_desk',
  /** Receives the margin left on a liquidation and pays for a gap beyond it (RULES "Lever"). */
  'insurance_fund',
  /** Finance yield the operator funded and no order is promised yet (RULES "Finance"); never below zero. */
  'finance_reserve',
  /** Finance yield promised to running orders, paid out day by day; never below zero. */
  'finance_yield',
  /** Money the operator puts in from outside the platform (funding a reserve); its negative balance is the total. */
  'operator_capital',
  /** Receives IEO payments at listing (RULES "IEO"). */
  'ieo_sales',
  /** Where a listed IEO coin's allotted units come from; its negative balance is what was issued. */
  'ieo_issuance',
] as const;
export type PlatformAccountType = (typeof PLATFORM_ACCOUNT_TYPES)[number];

export type LedgerAccountType = UserAccountType | PlatformAccountType;

/** Real money, and the separate practice book of the option and lever simulators. Nothing crosses between them. */
export const BOOKS = ['real', 'simulator'] as const;
export type LedgerBook = (typeof BOOKS)[number];
