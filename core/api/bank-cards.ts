import { bankCardCalls } from '../../protocol/bank-cards';
import type { CallRequest } from '../../protocol/call-spec';
import { areaApi, type CallOptions } from './client';

const { callApi, callApiResult } = areaApi(bankCardCalls);

/** The user's bound bank cards (numbers masked); false when the call failed. */
export function fetchBankCards(opts?: CallOptions) {
  return callApi('user/cash_info', {}, opts);
}

/** Binds a card, or with `id` replaces the fields of one of the user's cards. */
export function saveBankCard(body: CallRequest<typeof bankCardCalls, 'user/cash_save'>) {
  return callApiResult('user/cash_save', body);
}

export function deleteBankCard(id: number) {
  return callApiResult('user/cash_delete', { id: String(id) });
}
