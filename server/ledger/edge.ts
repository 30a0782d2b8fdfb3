import { BusinessError } from '../platform/errors';
import { isLedgerError, type LedgerErrorKey } from './errors';

/** Which form field each ledger refusal is about, per call (a transfer's currency field is `currency`, a deposit's `coin`). */
export type LedgerFields = Partial<Record<LedgerErrorKey, string>>;

/**
 * Runs a ledger call at the edge of a user request: a refusal the user can act on becomes a BusinessError in the
 * user's language, pointing at the form field it is about; anything else is a bug and passes through.
 */
export async function ledgerEdge<T>(work: () => Promise<T>, fields: LedgerFields): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isLedgerError(err)) {
      const field = fields[err.key];
      throw new BusinessError(err.key, field ? { field } : {});
    }
    throw err;
  }
}
