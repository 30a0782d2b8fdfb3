import type { CallRequest } from '../../protocol/call-spec';
import type { ChainCoin } from '../../protocol/chains';
import { type FundingState, fundingCalls } from '../../protocol/funding';
import { areaApi, type CallOptions } from './client';

const { callApi, callApiResult } = areaApi(fundingCalls);

/**
 * Deposits, withdrawals and their records. Reads show no global loading bar (the pages show their own); failures
 * of reads are toasted by the client, submissions answer with the field a failure is about.
 */
const read = { loading: false } as const;

export function fetchDepositCurrencies(opts: CallOptions = read) {
  return callApi('wallet/deposit_currency', {}, opts);
}

/** The platform's address for a coin and chain; a failure (none configured) comes back with its message. */
export function fetchDepositAddress(coin: ChainCoin, chain: string) {
  return callApiResult('wallet/deposit_address', { coin, chain }, { ...read, quiet: true });
}

/** The charge form's live hint: is the hash well formed for the chain, and already used? Null when the call failed. */
export async function checkDepositHash(
  body: CallRequest<typeof fundingCalls, 'wallet/check_address'>,
  signal?: AbortSignal,
) {
  const r = await callApiResult('wallet/check_address', body, {
    quiet: true,
    loading: false,
    ...(signal ? { signal } : {}),
  });
  return r.ok ? r.data : null;
}

export function submitDeposit(body: CallRequest<typeof fundingCalls, 'wallet/charge_req'>) {
  return callApiResult('wallet/charge_req', body);
}

export function fetchWithdrawalCurrencies(opts: CallOptions = read) {
  return callApi('wallet/withdrawal_currency', {}, opts);
}

export function fetchWithdrawInfo(coin: ChainCoin, opts: CallOptions = read) {
  return callApi('wallet/get_info', { coin }, opts);
}

export function submitWithdrawal(body: CallRequest<typeof fundingCalls, 'wallet/out'>) {
  return callApiResult('wallet/out', body);
}

export interface LogFilter {
  id?: number | undefined;
  state?: FundingState | undefined;
}

const logFields = (filter: LogFilter, beforeId: number | null, limit: number) => ({
  limit: String(limit),
  ...(beforeId !== null ? { before_id: String(beforeId) } : {}),
  ...(filter.id !== undefined ? { id: String(filter.id) } : {}),
  ...(filter.state ? { state: filter.state } : {}),
});

/** One page of the user's deposits (charge_mention/log2), newest first. */
export function fetchDeposits(filter: LogFilter, beforeId: number | null, limit = 20) {
  return callApi('charge_mention/log2', logFields(filter, beforeId, limit), read);
}

/** One page of the user's withdrawals (charge_mention/log3), newest first. */
export function fetchWithdrawals(filter: LogFilter, beforeId: number | null, limit = 20) {
  return callApi('charge_mention/log3', logFields(filter, beforeId, limit), read);
}
