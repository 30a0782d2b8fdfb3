import type { CallRequest } from '../../protocol/call-spec';
import { type AccountType, walletCalls } from '../../protocol/wallet';
import { areaApi, type CallOptions } from './client';

const { callApi, callApiResult } = areaApi(walletCalls);

/**
 * Assets and transfers. Reads show no global loading bar (the pages show their own spinner or pull indicator);
 * failures are toasted by the client as usual.
 */
const read = { loading: false } as const;

/** Every account type's balances and valuations (or one type's). */
export function fetchAssets(type?: AccountType, opts: CallOptions = read) {
  return callApi('wallet/list', type ? { type } : {}, opts);
}

export function fetchAssetDetail(currency: string, type?: AccountType) {
  return callApi('wallet/detail', { currency, ...(type ? { type } : {}) }, read);
}

export interface LogFilter {
  type?: AccountType | undefined;
  currency?: string | undefined;
}

/** One page of the user's ledger history, older than `beforeId` when given. */
export function fetchLedgerLog(filter: LogFilter, beforeId: number | null, limit = 20) {
  return callApi(
    'wallet/legal_log',
    {
      limit: String(limit),
      ...(beforeId !== null ? { before_id: String(beforeId) } : {}),
      ...(filter.type ? { type: filter.type } : {}),
      ...(filter.currency ? { currency: filter.currency } : {}),
    },
    read,
  );
}

/** One page of the user's transfers between account types. */
export function fetchTransfers(beforeId: number | null, limit = 20) {
  return callApi(
    'wallet/hzhistory',
    { limit: String(limit), ...(beforeId !== null ? { before_id: String(beforeId) } : {}) },
    read,
  );
}

/**
 * Moves money between two of the user's account types; send the same request_id again to retry the same transfer
 * (src/data/submission.ts makes and keeps it).
 */
export function transferBetweenAccounts(body: CallRequest<typeof walletCalls, 'wallet/change'>) {
  return callApiResult('wallet/change', body);
}
