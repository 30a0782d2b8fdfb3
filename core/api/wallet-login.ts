import type { CallRequest } from '../../protocol/call-spec';
import { walletLoginCalls } from '../../protocol/wallet-login';
import { areaApi } from './client';

const { callApi, callApiResult } = areaApi(walletLoginCalls);

/**
 * Wallet login (user/wallet_*): the message to sign for a wallet, login (or registration) with its signature, and the
 * account's linked wallets. The calls without a session are quiet: the login page shows their failures itself (a new
 * wallet's missing invite code is a question, not an error). Linking and unlinking report like other session calls.
 */
const quietLoad = { loading: false } as const;

export function fetchWalletMessage(body: CallRequest<typeof walletLoginCalls, 'user/wallet_nonce'>) {
  return callApiResult('user/wallet_nonce', body, { ...quietLoad, quiet: true });
}

/** Logs in with a signature; the app starts the session from the answer (src/features/account/session.ts). */
export function walletLogin(body: CallRequest<typeof walletLoginCalls, 'user/wallet_login'>) {
  return callApiResult('user/wallet_login', body, { quiet: true });
}

export function bindWallet(body: CallRequest<typeof walletLoginCalls, 'user/wallet_bind'>) {
  return callApiResult('user/wallet_bind', body);
}

export function unbindWallet(body: CallRequest<typeof walletLoginCalls, 'user/wallet_unbind'>) {
  return callApiResult('user/wallet_unbind', body);
}

export function fetchWallets() {
  return callApi('user/wallet_list', {}, quietLoad);
}
