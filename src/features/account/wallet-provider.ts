import { hex, utf8 } from '@scure/base';
import type { WalletChain } from '../../../protocol/wallet-login';

/**
 * The browser wallets wallet login talks to: an EIP-1193 provider (`window.ethereum`, e.g. MetaMask) for ERC, and
 * TronLink's injected `tronLink` / `tronWeb` for TRC. Each step that fails (no provider, the user declines, no
 * account) ends in WalletUnavailable; the page then shows SPEC 8's "Wallet connection failed" message.
 */

interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

interface TronWebLike {
  defaultAddress?: { base58?: string | false };
  trx: { signMessageV2(message: string): Promise<string> };
}

interface TronLinkLike {
  request?(args: { method: string }): Promise<unknown>;
  tronWeb?: TronWebLike | false;
}

type WalletWindow = Window & { ethereum?: Eip1193Provider; tronWeb?: TronWebLike | false; tronLink?: TronLinkLike };

export class WalletUnavailable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'WalletUnavailable';
  }
}

const walletWindow = (): WalletWindow => window as WalletWindow;

/** Which chains have a wallet in this browser (the page offers those first). */
export function availableWallets(): Record<WalletChain, boolean> {
  const w = walletWindow();
  return { erc: typeof w.ethereum?.request === 'function', trc: Boolean(w.tronLink || w.tronWeb) };
}

function tronWeb(): TronWebLike {
  const w = walletWindow();
  const tw = w.tronLink?.tronWeb || w.tronWeb;
  if (!tw || typeof tw.trx?.signMessageV2 !== 'function') throw new WalletUnavailable('no TRON wallet');
  return tw;
}

/** Asks the wallet for its account (the wallet may show its connect prompt); the address as the wallet spells it. */
export async function connectWallet(chain: WalletChain): Promise<string> {
  const w = walletWindow();
  try {
    if (chain === 'erc') {
      if (!w.ethereum) throw new WalletUnavailable('no Ethereum wallet');
      const accounts = await w.ethereum.request({ method: 'eth_requestAccounts' });
      const first = Array.isArray(accounts) ? accounts[0] : undefined;
      if (typeof first !== 'string') throw new WalletUnavailable('no Ethereum account');
      return first;
    }
    if (w.tronLink?.request) await w.tronLink.request({ method: 'tron_requestAccounts' });
    const address = tronWeb().defaultAddress?.base58;
    if (!address) throw new WalletUnavailable('no TRON account');
    return address;
  } catch (err) {
    throw err instanceof WalletUnavailable ? err : new WalletUnavailable(String(err));
  }
}

/** Has the wallet sign the server's message: personal_sign (EIP-191) for ERC, signMessageV2 for TRC. */
export async function signWithWallet(chain: WalletChain, address: string, message: string): Promise<string> {
  try {
    if (chain === 'erc') {
      const ethereum = walletWindow().ethereum;
      if (!ethereum) throw new WalletUnavailable('no Ethereum wallet');
      const signature = await ethereum.request({
        method: 'personal_sign',
        params: [`0x${hex.encode(utf8.decode(message))}`, address],
      });
      if (typeof signature !== 'string') throw new WalletUnavailable('no signature');
      return signature;
    }
    const signature = await tronWeb().trx.signMessageV2(message);
    if (typeof signature !== 'string') throw new WalletUnavailable('no signature');
    // Some TronWeb versions answer the hex without its 0x.
    return signature.startsWith('0x') ? signature : `0x${signature}`;
  } catch (err) {
    throw err instanceof WalletUnavailable ? err : new WalletUnavailable(String(err));
  }
}
