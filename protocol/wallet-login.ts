import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import {
  bytesToHex,
  concat,
  getAddress,
  type Hex,
  hexToBytes,
  isAddress,
  keccak256,
  recoverAddress,
  recoverMessageAddress,
  stringToBytes,
} from 'viem';
import { createSiweMessage, parseSiweMessage } from 'viem/siwe';
import { z } from 'zod/mini';
import { call, emptyResponse, none } from './call-spec';
import { inviteCodeField } from './fields';
import { user } from './user';

/**
 * Wallet login (SPEC 1): the server hands out an EIP-4361 ("Sign-In with Ethereum") message with a single-use nonce,
 * the wallet signs it, and the server checks the signature offline. TRON wallets sign the same text with TRON's
 * message prefix; the message's address line then carries the 20 address bytes in 0x form (EIP-4361 has no other
 * spelling) and the statement names the T-address the user sees in their wallet.
 */

export const WALLET_CHAINS = ['erc', 'trc'] as const;
export type WalletChain = (typeof WALLET_CHAINS)[number];
export const walletChainField = z.enum(WALLET_CHAINS, { error: 'walletChainInvalid' });

/** EIP-155 chain ids: Ethereum mainnet, and TRON mainnet's id (0x2b6653dc) as its EVM interface reports it. */
export const WALLET_CHAIN_IDS: Readonly<Record<WalletChain, number>> = { erc: 1, trc: 728126428 };

/** What a message is for: logging in (or registering) with a wallet, or linking it to the logged-in account. */
export const WALLET_PURPOSES = ['login', 'bind'] as const;
export type WalletPurpose = (typeof WALLET_PURPOSES)[number];

/** A message must be signed within this time after the server made it. */
export const WALLET_MESSAGE_TTL_MS = 10 * 60_000;
/** Wallets one account may link. */
export const WALLET_LINKS_MAX = 10;
/** Longer than any message this server makes (about 500 characters); anything longer is refused unread. */
export const WALLET_MESSAGE_MAX = 2000;

const statementOf = (purpose: WalletPurpose, chain: WalletChain, address: string): string => {
  const what = purpose === 'login' ? 'Sign in to TradeWave.' : 'Link this wallet to your TradeWave account.';
  return chain === 'trc' ? `${what} TRON address: ${address}` : what;
};

// --- Addresses -----------------------------------------------------------------------------------------------------

/** TRON addresses are Base58Check of the version byte 0x41 and the same 20 bytes an Ethereum address has. */
const TRON_VERSION = 0x41;
const base58check = createBase58check(sha256);

/** The T-address of 20 address bytes given in 0x form. */
export function tronAddressOf(hexAddress: Hex): string {
  return base58check.encode(Uint8Array.from([TRON_VERSION, ...hexToBytes(hexAddress)]));
}

/** The 20 address bytes of a T-address in EIP-55 0x form, or null when it is no valid TRON address. */
export function tronHexOf(tronAddress: string): Hex | null {
  let payload: Uint8Array;
  try {
    payload = base58check.decode(tronAddress);
  } catch {
    return null;
  }
  if (payload.length !== 21 || payload[0] !== TRON_VERSION) return null;
  return getAddress(bytesToHex(payload.slice(1)));
}

/**
 * The one spelling an address is stored and compared in, or null when it is none: EIP-55 for Ethereum (all lower or
 * all upper case is taken as unchecked and given its checksum; mixed case must be the checksum), the Base58Check
 * T-address for TRON.
 */
export function canonicalWalletAddress(chain: WalletChain, text: string): string | null {
  const value = text.trim();
  if (chain === 'trc') {
    const hex = tronHexOf(value);
    return hex === null ? null : tronAddressOf(hex);
  }
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return null;
  const digits = value.slice(2);
  const unchecked = digits === digits.toLowerCase() || digits === digits.toUpperCase();
  const checksummed = getAddress(`0x${digits.toLowerCase()}`);
  return unchecked || checksummed === value ? checksummed : null;
}

/** The address line of the message for a canonical address of `chain`. */
const messageAddressOf = (chain: WalletChain, address: string): Hex =>
  chain === 'trc' ? (tronHexOf(address) as Hex) : (address as Hex);

// --- The message ---------------------------------------------------------------------------------------------------

export interface WalletMessageTerms {
  chain: WalletChain;
  purpose: WalletPurpose;
  /** Canonical address (canonicalWalletAddress). */
  address: string;
  /** RFC 3986 authority the user is signing in to (host[:port]). */
  domain: string;
  /** The site's origin, e.g. https://trade.example.com. */
  uri: string;
  nonce: string;
  issuedAt: number;
  expiresAt: number;
}

/** The exact text the wallet signs (EIP-4361). Throws when a term is not allowed by EIP-4361 (e.g. an IPv6 host). */
export function walletMessage(t: WalletMessageTerms): string {
  return createSiweMessage({
    address: messageAddressOf(t.chain, t.address),
    chainId: WALLET_CHAIN_IDS[t.chain],
    domain: t.domain,
    uri: t.uri,
    version: '1',
    nonce: t.nonce,
    statement: statementOf(t.purpose, t.chain, t.address),
    issuedAt: new Date(t.issuedAt),
    expirationTime: new Date(t.expiresAt),
  });
}

/** The fields of a signed message this server made: every one is present, or the message is refused as malformed. */
export interface ParsedWalletMessage {
  domain: string;
  uri: string;
  chainId: number;
  nonce: string;
  /** The message's address line in EIP-55 form (for TRON, the 0x form of the T-address). */
  address: Hex;
  issuedAt: number;
  expiresAt: number;
}

/** Reads a message; null when it is no complete EIP-4361 message with the fields this server puts in. */
export function parseWalletMessage(message: string): ParsedWalletMessage | null {
  if (message.length > WALLET_MESSAGE_MAX) return null;
  const m = parseSiweMessage(message);
  const issuedAt = m.issuedAt?.getTime();
  const expiresAt = m.expirationTime?.getTime();
  if (
    !m.domain ||
    !m.uri ||
    m.version !== '1' ||
    m.chainId === undefined ||
    !m.nonce ||
    !m.address ||
    !isAddress(m.address, { strict: false }) ||
    issuedAt === undefined ||
    expiresAt === undefined ||
    Number.isNaN(issuedAt) ||
    Number.isNaN(expiresAt)
  ) {
    return null;
  }
  return {
    domain: m.domain,
    uri: m.uri,
    chainId: m.chainId,
    nonce: m.nonce,
    address: getAddress(m.address),
    issuedAt,
    expiresAt,
  };
}

/** The canonical address (of `chain`) a parsed message names. */
export const messageWalletAddress = (chain: WalletChain, parsed: ParsedWalletMessage): string =>
  chain === 'trc' ? tronAddressOf(parsed.address) : parsed.address;

// --- Signatures ----------------------------------------------------------------------------------------------------

/** TronWeb's signMessageV2 prefix: "\x19TRON Signed Message:\n" + the message's length in bytes + the message. */
export const TRON_MESSAGE_PREFIX = '\x19TRON Signed Message:\n';

/** The hash a TRON wallet signs for `message` (signMessageV2): Keccak-256 over the prefixed UTF-8 bytes. */
export function tronMessageHash(message: string): Hex {
  const bytes = stringToBytes(message);
  return keccak256(concat([stringToBytes(TRON_MESSAGE_PREFIX), stringToBytes(String(bytes.length)), bytes]));
}

/** A 65-byte secp256k1 signature (r, s, v) in hex, as personal_sign and signMessageV2 return it. */
export const SIGNATURE_RE = /^0x[0-9a-fA-F]{130}$/;

/**
 * The canonical address that signed `message` on `chain` (personal_sign / EIP-191 for Ethereum, signMessageV2 for
 * TRON), or null when the signature recovers to nothing.
 */
export async function recoverWalletSigner(
  chain: WalletChain,
  message: string,
  signature: string,
): Promise<string | null> {
  if (!SIGNATURE_RE.test(signature)) return null;
  const sig = signature as Hex;
  try {
    if (chain === 'erc') return getAddress(await recoverMessageAddress({ message, signature: sig }));
    return tronAddressOf(await recoverAddress({ hash: tronMessageHash(message), signature: sig }));
  } catch {
    return null;
  }
}

// --- Checks --------------------------------------------------------------------------------------------------------

/** Why a signed message is refused; each is a key of the `errors` namespace. */
export type WalletRefusal =
  | 'walletMessageMalformed'
  | 'walletChainMismatch'
  | 'walletDomainMismatch'
  | 'walletMessageExpired'
  | 'walletSignerMismatch';

/** What the server issued with the nonce: the message must say exactly this. */
export interface IssuedWalletMessage {
  chain: WalletChain;
  address: string;
  domain: string;
  uri: string;
  message: string;
  expiresAt: number;
}

/**
 * The checks of a signed message against what was issued for its nonce, in an order that names the real problem:
 * another chain, another site, too late, another address, any other change (malformed), then the signature itself.
 * Returns null when the message may log in.
 */
export async function walletMessageRefusal(
  input: { chain: WalletChain; message: string; signature: string },
  parsed: ParsedWalletMessage,
  issued: IssuedWalletMessage,
  now: number,
): Promise<WalletRefusal | null> {
  if (input.chain !== issued.chain || parsed.chainId !== WALLET_CHAIN_IDS[issued.chain]) return 'walletChainMismatch';
  if (parsed.domain !== issued.domain || parsed.uri !== issued.uri) return 'walletDomainMismatch';
  if (now >= issued.expiresAt || now >= parsed.expiresAt) return 'walletMessageExpired';
  if (messageWalletAddress(issued.chain, parsed) !== issued.address) return 'walletSignerMismatch';
  if (input.message !== issued.message) return 'walletMessageMalformed';
  const signer = await recoverWalletSigner(issued.chain, input.message, input.signature);
  return signer === issued.address ? null : 'walletSignerMismatch';
}

// --- Calls ---------------------------------------------------------------------------------------------------------

const addressField = z
  .string({ error: 'walletAddressInvalid' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'walletAddressInvalid' }),
    z.maxLength(64, { error: 'walletAddressInvalid' }),
  );

/**
 * The schemas check the shape only; the server reads the address with canonicalWalletAddress (so the client's chunk
 * carries no hashing code for a check the wallet has made already).
 */
export const walletNonceRequest = z.object({
  chain: walletChainField,
  address: addressField,
  purpose: z.pipe(
    z.optional(z.enum(WALLET_PURPOSES, { error: 'invalidInput' })),
    z.transform((v) => v ?? 'login'),
  ),
});
export const walletNonceResponse = z.object({
  chain: walletChainField,
  address: z.string(),
  nonce: z.string(),
  message: z.string(),
  expires_at: z.number(),
});
export type WalletNonce = z.infer<typeof walletNonceResponse>;

const signedMessage = {
  chain: walletChainField,
  message: z
    .string({ error: 'walletMessageMalformed' })
    .check(
      z.minLength(1, { error: 'walletMessageMalformed' }),
      z.maxLength(WALLET_MESSAGE_MAX, { error: 'walletMessageMalformed' }),
    ),
  signature: z.string({ error: 'walletSignatureMalformed' }).check(
    z.trim(),
    z.regex(SIGNATURE_RE, {
      error: 'walletSignatureMalformed',
    }),
  ),
};

/** An empty invite code is none (a known wallet needs none); control characters never name one (nor reach SQL). */
const optionalInvite = z.optional(
  z.pipe(
    z.transform((v: string | undefined) => (typeof v === 'string' && v.trim() === '' ? undefined : v)),
    z.optional(inviteCodeField.check(z.refine((v) => !/\p{Cc}/u.test(v), { error: 'inviteInvalid' }))),
  ),
);

/** Raw optional form text, checked by `provedContact` only when a new wallet registers. */
const looseText = (max: number) => z.optional(z.string().check(z.maxLength(max, { error: 'invalidInput' })));

/**
 * A new wallet registers: like SPEC 5's registration it needs an invite code, the ticked user agreement, and a phone
 * number or e-mail address with its `register` code (`provedContact`; a known wallet sends none of them).
 */
export const walletLoginRequest = z.object({
  ...signedMessage,
  invite_code: optionalInvite,
  agree: z.pipe(
    z.optional(z.string({ error: 'agreementRequired' })),
    z.transform((v) => v === '1' || v === 'true'),
  ),
  type: looseText(8),
  area_code: looseText(8),
  mobile: looseText(32),
  email: looseText(254),
  code: looseText(16),
});
export type WalletLoginRequest = z.input<typeof walletLoginRequest>;
export const walletBindRequest = z.object(signedMessage);

/** Unlinking asks for the login password (see docs/products.md "Wallet login"). */
export const walletUnbindRequest = z.object({
  chain: walletChainField,
  address: addressField,
  password: z
    .string({ error: 'passwordRequired' })
    .check(z.minLength(1, { error: 'passwordRequired' }), z.maxLength(128, { error: 'tooLong' })),
});

export const walletLink = z.object({ chain: walletChainField, address: z.string(), created_at: z.number() });
export type WalletLink = z.infer<typeof walletLink>;
export const walletListResponse = z.object({
  wallets: z.array(walletLink),
  /** False for an account made by a wallet: it has no login password, so it logs in only with its wallets. */
  password_login: z.boolean(),
});
export type WalletList = z.infer<typeof walletListResponse>;

/** Same shape as user/login's answer. */
export const walletSessionResponse = z.object({ token: z.string(), user });

/** The wallet login calls (its domain names them in its contract; server/domains/compose.ts joins every table). */
export const walletLoginCalls = {
  'user/wallet_nonce': call('POST', false, walletNonceRequest, walletNonceResponse),
  'user/wallet_login': call('POST', false, walletLoginRequest, walletSessionResponse),
  'user/wallet_bind': call('POST', true, walletBindRequest, walletLink),
  'user/wallet_unbind': call('POST', true, walletUnbindRequest, emptyResponse),
  'user/wallet_list': call('GET', true, none, walletListResponse),
} as const;
