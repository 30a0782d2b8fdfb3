// @vitest-environment node
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { getAddress, type Hex, hashMessage } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  canonicalWalletAddress,
  type IssuedWalletMessage,
  parseWalletMessage,
  recoverWalletSigner,
  tronAddressOf,
  tronHexOf,
  tronMessageHash,
  WALLET_CHAIN_IDS,
  type WalletChain,
  walletMessage,
  walletMessageRefusal,
  walletNonceRequest,
} from './wallet-login';

// Wallet login's pure rules: address spellings, the EIP-4361 text, TRON's message hash, signer recovery, and the
// order of the refusals. Signatures come from local keys (viem's privateKeyToAccount); TRON's are made by the same
// recipe TronWeb's signMessageV2 uses (secp256k1 over the TRON-prefixed Keccak hash).

const KEY_A: Hex = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const KEY_B: Hex = '0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f';
const alice = privateKeyToAccount(KEY_A);
const bob = privateKeyToAccount(KEY_B);
const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

const signErc = (account = alice, message: string) => account.signMessage({ message });
const signTrc = (account = alice, message: string) => account.sign({ hash: tronMessageHash(message) });

function issue(chain: WalletChain, address: string, overrides: Partial<Parameters<typeof walletMessage>[0]> = {}) {
  const terms = {
    chain,
    purpose: 'login' as const,
    address,
    domain: 'trade.example.com',
    uri: 'https://trade.example.com',
    nonce: 'abcDEF1234567890',
    issuedAt: NOW,
    expiresAt: NOW + 600_000,
    ...overrides,
  };
  const message = walletMessage(terms);
  const issued: IssuedWalletMessage = {
    chain,
    address,
    domain: 'trade.example.com',
    uri: 'https://trade.example.com',
    message,
    expiresAt: NOW + 600_000,
  };
  return { message, issued };
}

async function refusal(chain: WalletChain, message: string, signature: string, issued: IssuedWalletMessage, now = NOW) {
  const parsed = parseWalletMessage(message);
  if (!parsed) return 'walletMessageMalformed';
  return walletMessageRefusal({ chain, message, signature }, parsed, issued, now);
}

describe('wallet addresses', () => {
  it('stores Ethereum addresses in their EIP-55 spelling and refuses a wrong checksum', () => {
    const checksummed = alice.address;
    expect(canonicalWalletAddress('erc', checksummed.toLowerCase())).toBe(checksummed);
    expect(canonicalWalletAddress('erc', `0x${checksummed.slice(2).toUpperCase()}`)).toBe(checksummed);
    expect(canonicalWalletAddress('erc', ` ${checksummed} `)).toBe(checksummed);
    const flipped = checksummed.replace(/[a-f]/, (c) => c.toUpperCase());
    expect(canonicalWalletAddress('erc', flipped)).toBeNull();
    expect(canonicalWalletAddress('erc', '0x1234')).toBeNull();
    expect(canonicalWalletAddress('erc', tronAddressOf(alice.address))).toBeNull();
  });

  it('converts between a TRON T-address and its 20 bytes, checking the Base58Check sum', () => {
    // A known pair: the USDT TRC-20 contract and its hex form (41 + these 20 bytes).
    expect(tronAddressOf(getAddress('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c'))).toBe(
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    );
    const t = tronAddressOf(alice.address);
    expect(t).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(tronHexOf(t)).toBe(alice.address);
    expect(canonicalWalletAddress('trc', t)).toBe(t);
    const typo = `${t.slice(0, -1)}${t.endsWith('a') ? 'b' : 'a'}`;
    expect(canonicalWalletAddress('trc', typo)).toBeNull();
    expect(canonicalWalletAddress('trc', alice.address)).toBeNull();
  });

  it('takes a nonce request for a login unless it says otherwise, refusing other chains', () => {
    expect(walletNonceRequest.parse({ chain: 'erc', address: alice.address })).toEqual({
      chain: 'erc',
      address: alice.address,
      purpose: 'login',
    });
    expect(walletNonceRequest.parse({ chain: 'trc', address: 'T', purpose: 'bind' }).purpose).toBe('bind');
    const issue = (input: object) => walletNonceRequest.safeParse(input).error?.issues[0];
    expect(issue({ chain: 'btc', address: alice.address })?.message).toBe('walletChainInvalid');
    expect(issue({ chain: 'erc', address: '' })).toMatchObject({ message: 'walletAddressInvalid', path: ['address'] });
  });
});

describe('the signed message', () => {
  it('is an EIP-4361 message with the chain id of its chain, read back field by field', () => {
    const { message } = issue('erc', alice.address);
    expect(message).toContain('trade.example.com wants you to sign in with your Ethereum account:');
    expect(message).toContain('Chain ID: 1\n');
    expect(parseWalletMessage(message)).toEqual({
      domain: 'trade.example.com',
      uri: 'https://trade.example.com',
      chainId: 1,
      nonce: 'abcDEF1234567890',
      address: alice.address,
      issuedAt: NOW,
      expiresAt: NOW + 600_000,
    });
    const tron = issue('trc', tronAddressOf(alice.address)).message;
    expect(tron).toContain(`Chain ID: ${WALLET_CHAIN_IDS.trc}\n`);
    expect(tron).toContain(`TRON address: ${tronAddressOf(alice.address)}`);
  });

  it('treats anything that is not a complete message as malformed', () => {
    expect(parseWalletMessage('hello')).toBeNull();
    const { message } = issue('erc', alice.address);
    expect(parseWalletMessage(message.replace(/\nExpiration Time: .*/, ''))).toBeNull();
    expect(parseWalletMessage(`${message}${'x'.repeat(3000)}`)).toBeNull();
  });

  it("hashes TRON messages as TronWeb's signMessageV2 does: its prefix and the length in bytes, not characters", () => {
    // Keccak-256 over "\x19TRON Signed Message:\n", the UTF-8 byte count, then the bytes, built here by hand.
    const expected = (bytes: Uint8Array, count: string) =>
      bytesToHex(keccak_256(concatBytes(utf8ToBytes(`\x19TRON Signed Message:\n${count}`), bytes)));
    expect(tronMessageHash('Sign in')).toBe(`0x${expected(utf8ToBytes('Sign in'), '7')}`);
    // "ä" is two bytes: a prefix with the character count ("1") would give another hash.
    expect(tronMessageHash('ä')).toBe(`0x${expected(new Uint8Array([0xc3, 0xa4]), '2')}`);
    // Not Ethereum's prefix: the same text hashes differently under "\x19Ethereum Signed Message:\n".
    expect(tronMessageHash('Sign in')).not.toBe(hashMessage('Sign in'));
  });
});

describe('signatures', () => {
  it('recovers the Ethereum signer of personal_sign and the TRON signer of signMessageV2', async () => {
    const { message } = issue('erc', alice.address);
    expect(await recoverWalletSigner('erc', message, await signErc(alice, message))).toBe(alice.address);
    const tron = tronAddressOf(alice.address);
    const tm = issue('trc', tron).message;
    expect(await recoverWalletSigner('trc', tm, await signTrc(alice, tm))).toBe(tron);
    // A TRON signature is no Ethereum signature of the same text (the prefixes differ), and the reverse.
    expect(await recoverWalletSigner('erc', tm, await signTrc(alice, tm))).not.toBe(alice.address);
    expect(await recoverWalletSigner('trc', message, await signErc(alice, message))).not.toBe(tron);
    expect(await recoverWalletSigner('erc', message, '0x1234')).toBeNull();
    expect(await recoverWalletSigner('erc', message, `0x${'00'.repeat(65)}`)).toBeNull();
  });

  it('accepts the issued message signed by its own key', async () => {
    const { message, issued } = issue('erc', alice.address);
    expect(await refusal('erc', message, await signErc(alice, message), issued)).toBeNull();
    const tron = tronAddressOf(alice.address);
    const t = issue('trc', tron);
    expect(await refusal('trc', t.message, await signTrc(alice, t.message), t.issued)).toBeNull();
  });

  it('names each refusal', async () => {
    const { message, issued } = issue('erc', alice.address);
    const good = await signErc(alice, message);
    // Another key.
    expect(await refusal('erc', message, await signErc(bob, message), issued)).toBe('walletSignerMismatch');
    // Another chain: asked as TRON, or a message naming another chain id.
    expect(await refusal('trc', message, good, issued)).toBe('walletChainMismatch');
    const otherChain = message.replace('Chain ID: 1\n', 'Chain ID: 56\n');
    expect(await refusal('erc', otherChain, await signErc(alice, otherChain), issued)).toBe('walletChainMismatch');
    // Another site.
    const otherSite = message.replaceAll('trade.example.com', 'trade-example.com');
    expect(await refusal('erc', otherSite, await signErc(alice, otherSite), issued)).toBe('walletDomainMismatch');
    // Too late (the message's own expiry or the issued one).
    expect(await refusal('erc', message, good, issued, NOW + 600_000)).toBe('walletMessageExpired');
    // Another address in the text than the nonce was issued for.
    const forBob = issue('erc', bob.address).message;
    expect(await refusal('erc', forBob, await signErc(bob, forBob), issued)).toBe('walletSignerMismatch');
    // Any other change to the text.
    const edited = message.replace('Sign in to TradeWave.', 'Sign in to TradeWave!');
    expect(await refusal('erc', edited, await signErc(alice, edited), issued)).toBe('walletMessageMalformed');
    expect(await refusal('erc', 'not a message', good, issued)).toBe('walletMessageMalformed');
  });
});
