import type { walletLoginCalls } from '../../../protocol/wallet-login';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { bindWallet, listWallets, unbindWallet, walletLogin } from './links';
import { issueWalletNonce, type WalletLoginServices } from './nonces';

/** Wallet login (SPEC 1): messages to sign, login or registration by signature, and the account's linked wallets. */
export function walletLoginHandlers(s: WalletLoginServices): CallHandlers<typeof walletLoginCalls> {
  return {
    'user/wallet_nonce': (input, ctx) => issueWalletNonce(s, input, ctx),
    'user/wallet_login': (input, ctx) => walletLogin(s, input, ctx),
    'user/wallet_bind': (input, ctx) => bindWallet(s, requireSession(ctx), input, ctx.site),
    'user/wallet_unbind': async (input, ctx) => {
      await unbindWallet(s, requireSession(ctx), input, ctx.ip);
      return {};
    },
    'user/wallet_list': (_input, ctx) => listWallets(s, requireSession(ctx)),
  };
}
