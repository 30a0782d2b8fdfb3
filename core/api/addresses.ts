import type { CallRequest } from '../../protocol/call-spec';
import type { ChainCoin } from '../../protocol/chains';
import { addressCalls } from '../../protocol/wallet-addresses';
import { areaApi, type CallOptions } from './client';

const { callApi, callApiResult } = areaApi(addressCalls);

/** The user's withdrawal addresses, of one coin when given (newest first); false when the call failed. */
export function fetchAddresses(coin?: ChainCoin, opts?: CallOptions) {
  return callApi('wallet/get_address', coin ? { coin } : {}, opts);
}

export function addAddress(body: CallRequest<typeof addressCalls, 'wallet/addaddress'>) {
  return callApiResult('wallet/addaddress', body);
}

export function deleteAddress(id: number) {
  return callApiResult('wallet/deladdress', { id: String(id) });
}

/**
 * The server's word on an address while it is typed (wallet/apv_address): valid on the chain, already saved.
 * Quiet and without the loading bar; null when the call failed or was cancelled.
 */
export async function checkAddress(body: CallRequest<typeof addressCalls, 'wallet/apv_address'>, signal?: AbortSignal) {
  const r = await callApiResult('wallet/apv_address', body, {
    quiet: true,
    loading: false,
    ...(signal ? { signal } : {}),
  });
  return r.ok ? r.data : null;
}
