import { z } from 'zod/mini';
import { base58CheckDecode, eip55, segwitDecode } from './address-codecs';
import { type Chain, type ChainCoin, isChainOf } from './chain-coins';

/**
 * What an address on each chain looks like (SPEC 9), with its checksum. The coins and their chains are in
 * chain-coins.ts (re-exported here): deposits and withdrawals need those without the checksum code, which only the
 * pages that check addresses load.
 */
export * from './chain-coins';

/** Longest address any chain here has (a Bech32 address may reach 90 characters). */
export const ADDRESS_MAX = 100;

const ERC20_RE = /^0x[0-9a-fA-F]{40}$/;
/** Base58 alphabet, 26 to 35 characters, starting with 1 (P2PKH) or 3 (P2SH). */
const BASE58_RE = /^[13][1-9A-HJ-NP-Za-km-z]{25,34}$/;
/** Bitcoin mainnet version bytes: 0x00 for P2PKH ("1..."), 0x05 for P2SH ("3..."). */
const BITCOIN_VERSIONS = new Set([0x00, 0x05]);

function isErc20Address(address: string): boolean {
  if (!ERC20_RE.test(address)) return false;
  const hex = address.slice(2);
  // All one case carries no checksum; mixed case is EIP-55 and must match it exactly (it catches typos).
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  return eip55(address) === address;
}

/** OMNI rides on Bitcoin: a Base58Check legacy or P2SH address, or a native SegWit bc1 address. */
function isOmniAddress(address: string): boolean {
  if (/^bc1/i.test(address)) return segwitDecode(address, 'bc') !== null;
  if (!BASE58_RE.test(address)) return false;
  const payload = base58CheckDecode(address);
  return payload !== null && payload.length === 21 && BITCOIN_VERSIONS.has(payload[0]!);
}

/** True when `address` (trimmed) is a well-formed mainnet address on `chain`, its checksum included. */
export function isAddressOnChain(chain: Chain, address: string): boolean {
  return chain === 'ERC20' ? isErc20Address(address) : isOmniAddress(address);
}

/**
 * The one spelling an address is stored and compared in, so the same address typed twice is one address:
 * ERC20 in its EIP-55 checksum case, Bech32 in lower case, Base58 as it is (its case is meaningful).
 * Only for addresses that passed `isAddressOnChain`.
 */
export function canonicalAddress(chain: Chain, address: string): string {
  if (chain === 'ERC20') return eip55(address);
  return /^bc1/i.test(address) ? address.toLowerCase() : address;
}

export const chainAddressField = z
  .string({ error: 'withdrawAddressRequired' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'withdrawAddressRequired' }),
    z.maxLength(ADDRESS_MAX, { error: 'tooLong' }),
  );

/**
 * For a parsed {coin, chain, address}: the chain must be one of the coin's (`chainInvalid` on chain) and the
 * address must be valid on it (`addressInvalid` on address).
 */
export function checkChainAddress(
  v: { coin: ChainCoin; chain: Chain; address: string },
  ctx: z.core.$RefinementCtx,
): void {
  if (!isChainOf(v.coin, v.chain)) ctx.addIssue({ code: 'custom', message: 'chainInvalid', path: ['chain'] });
  else if (!isAddressOnChain(v.chain, v.address)) {
    ctx.addIssue({ code: 'custom', message: 'addressInvalid', path: ['address'] });
  }
}
