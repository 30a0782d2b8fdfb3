import type { DatabaseHandle } from '../../db/connect';
import { BusinessError } from '../../errors';
import { isLedgerError, type LedgerErrorKey } from '../../ledger/errors';
import type { Ledger } from '../../ledger/ledger';
import type { AccountServices } from '../account/services';

export interface FundingServices {
  account: AccountServices;
  database: DatabaseHandle;
  ledger: Ledger;
  now: () => number;
}

/** The form field each ledger refusal is about. */
const FIELD_OF: Partial<Record<LedgerErrorKey, string>> = {
  amountRequired: 'amount',
  amountInvalid: 'amount',
  amountNotPositive: 'amount',
  amountTooPrecise: 'amount',
  amountTooLarge: 'amount',
  insufficientBalance: 'amount',
  currencyUnsupported: 'coin',
};

/** Runs a ledger call; a refusal the user can act on becomes a BusinessError in the user's language. */
export async function ledgerEdge<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isLedgerError(err)) {
      const field = FIELD_OF[err.key];
      throw new BusinessError(err.key, field ? { field } : {});
    }
    throw err;
  }
}
