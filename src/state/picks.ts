import { proxy } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import type { BankCard } from '../../protocol/bank-cards';
import type { WithdrawAddress } from '../../protocol/wallet-addresses';
import { session } from './session';

/**
 * What the user chose on a picker page for the page that sent them there: a withdrawal address
 * (user/address/address?coin=...) or a bank card (assets/withdraw/bank/bank). The picker sets it and goes back;
 * the withdraw page reads it. Lives for the tab only and is forgotten when the session changes.
 */
export interface Picks {
  address: WithdrawAddress | null;
  bankCard: BankCard | null;
}

export const picks = proxy<Picks>({ address: null, bankCard: null });

export function pickAddress(address: WithdrawAddress): void {
  picks.address = address;
}

export function pickBankCard(card: BankCard): void {
  picks.bankCard = card;
}

/** Forgets a pick that no longer exists (deleted on its list page). */
export function forgetPicked(kind: 'address' | 'bankCard', id: number): void {
  if (picks[kind]?.id === id) picks[kind] = null;
}

subscribeKey(session, 'token', () => {
  picks.address = null;
  picks.bankCard = null;
});
