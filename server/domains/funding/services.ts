import type { Ledger, LedgerFields } from '../../ledger';
import type { DatabaseHandle } from '../../platform/db/connect';
import type { AccountServices } from '../account';

export interface FundingServices {
  account: AccountServices;
  database: DatabaseHandle;
  ledger: Ledger;
  now: () => number;
}

/** The form field each ledger refusal is about. */
export const FUNDING_FIELDS: LedgerFields = {
  amountRequired: 'amount',
  amountInvalid: 'amount',
  amountNotPositive: 'amount',
  amountTooPrecise: 'amount',
  amountTooLarge: 'amount',
  insufficientBalance: 'amount',
  currencyUnsupported: 'coin',
};
