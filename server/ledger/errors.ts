import type { AmountErrorKey } from './amounts';

/**
 * Refusals the user can act on. Each key is meant for the `errors` locale namespace, so the HTTP layer can turn a
 * LedgerError into a BusinessError once the translations exist. Anything else the ledger throws is a bug.
 */
export type LedgerErrorKey =
  | AmountErrorKey
  | 'insufficientBalance'
  | 'accountTypeInvalid'
  | 'transferSameAccount'
  | 'requestIdInvalid'
  | 'requestIdReused'
  | 'holdNotFound'
  | 'holdNotOpen';

export class LedgerError extends Error {
  constructor(readonly key: LedgerErrorKey) {
    super(key);
    this.name = 'LedgerError';
  }
}

export const isLedgerError = (err: unknown): err is LedgerError => err instanceof LedgerError;
