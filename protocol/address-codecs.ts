/**
 * The checksums behind crypto address validation, synchronous and the same in the server and the browser
 * (WebCrypto's digest is async and has no Keccak): SHA-256 for Base58Check, Keccak-256 for EIP-55 mixed-case
 * Ethereum addresses, and Bech32/Bech32m for native SegWit addresses. The primitives come from the audited
 * @noble/hashes and @scure/base; this module only applies the address rules on top of them.
 * A typo in a withdrawal address sends funds nowhere; these checksums catch it before anything is saved.
 */

import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bech32, bech32m, createBase58check, hex, utf8 } from '@scure/base';

/** SHA-256 (FIPS 180-4) of `data`. */
export { sha256 };

/** Keccak-256 as Ethereum uses it (the original Keccak padding, not SHA3-256's). */
export const keccak256 = (data: Uint8Array): Uint8Array => keccak_256(data);

export const toHex = (bytes: Uint8Array): string => hex.encode(bytes);

/** EIP-55: the mixed-case checksum form of a 40-hex-digit Ethereum address (with its 0x). */
export function eip55(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = toHex(keccak256(utf8.decode(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    out += Number.parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  return out;
}

const base58check = createBase58check(sha256);

/** Base58Check: the payload (version byte + data) when the text decodes and its 4-byte checksum holds; else null. */
export function base58CheckDecode(text: string): Uint8Array | null {
  try {
    const payload = base58check.decode(text);
    return payload.length > 0 ? payload : null;
  } catch {
    return null;
  }
}

/**
 * A native SegWit address (BIP 173 Bech32 for version 0, BIP 350 Bech32m for versions 1 to 16) with the human
 * readable part `hrp`: its witness version and program, or null when anything is off (case, checksum, length).
 */
export function segwitDecode(text: string, hrp: string): { version: number; program: number[] } | null {
  const plain = bech32.decodeUnsafe(text);
  const decoded = plain ?? bech32m.decodeUnsafe(text);
  if (!decoded || decoded.prefix !== hrp) return null;
  const [version, ...data] = decoded.words;
  if (version === undefined || version > 16) return null;
  // The checksum kind is bound to the witness version: Bech32 for version 0, Bech32m for the others.
  if ((version === 0) !== (decoded === plain)) return null;
  // fromWordsUnsafe refuses more than 4 bits of padding and non-zero padding (BIP 173).
  const bytes = bech32.fromWordsUnsafe(data);
  if (!bytes || bytes.length < 2 || bytes.length > 40) return null;
  if (version === 0 && bytes.length !== 20 && bytes.length !== 32) return null;
  return { version, program: Array.from(bytes) };
}
