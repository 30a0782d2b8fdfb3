import type { DatabaseHandle } from '../../db/connect';
import type { Ledger } from '../../ledger/ledger';
import type { AccountServices } from '../account/services';
import type { LedgerFields } from '../ledger-edge';

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
