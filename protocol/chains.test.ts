// @vitest-environment node
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base58CheckDecode, eip55, keccak256, segwitDecode, sha256, toHex } from './address-codecs';
import { CHAINS_BY_COIN, canonicalAddress, isAddressOnChain } from './chains';
import { addAddressRequest, apvAddressRequest } from './wallet-addresses';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Published examples: EIP-55's own, Bitcoin's genesis and BIP 13/173/350 addresses. */
const EIP55 = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];
const P2PKH = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const P2SH = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
const SEGWIT_V0 = 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4';
const SEGWIT_V0_32 = 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3';
const TAPROOT = 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0';

describe('address checksums', () => {
  it('computes SHA-256 like node:crypto for lengths around the block edges', () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 255);
      expect(toHex(sha256(data)), `length ${n}`).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });

  it('computes Keccak-256 (not SHA3-256)', () => {
    expect(toHex(keccak256(bytes('')))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(toHex(keccak256(bytes('abc')))).toBe('4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
    // Longer than one 136-byte block.
    expect(keccak256(bytes('x'.repeat(300)))).toHaveLength(32);
  });

  it('reproduces the EIP-55 examples from any case', () => {
    for (const a of EIP55) {
      expect(eip55(a)).toBe(a);
      expect(eip55(a.toLowerCase())).toBe(a);
    }
  });

  it('decodes Base58Check and refuses a changed character', () => {
    expect(base58CheckDecode(P2PKH)?.[0]).toBe(0x00);
    expect(base58CheckDecode(P2SH)?.[0]).toBe(0x05);
    expect(base58CheckDecode(`${P2PKH.slice(0, -1)}b`)).toBeNull();
    expect(base58CheckDecode('1A1zP1eP5QGefi2DMPTfTL5SLmv7Divf0a')).toBeNull();
  });

  it('decodes Bech32 and Bech32m SegWit addresses and refuses the wrong checksum kind', () => {
    expect(segwitDecode(SEGWIT_V0, 'bc')).toMatchObject({ version: 0 });
    expect(segwitDecode(SEGWIT_V0_32, 'bc')?.program).toHaveLength(32);
    expect(segwitDecode(TAPROOT, 'bc')).toMatchObject({ version: 1 });
    expect(segwitDecode(SEGWIT_V0.replace('T4', 'T5'), 'bc')).toBeNull();
    // Mixed case, another network's prefix.
    expect(segwitDecode('bc1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'bc')).toBeNull();
    expect(segwitDecode('tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', 'bc')).toBeNull();
  });
});

describe('chains', () => {
  it('offers the chains of SPEC 9 per coin', () => {
    expect(CHAINS_BY_COIN).toEqual({ USDT: ['ERC20', 'OMNI'], USDC: ['ERC20'], BTC: ['OMNI'], ETH: ['ERC20'] });
  });

  it('validates ERC20 addresses with their checksum when mixed case', () => {
    const [a = ''] = EIP55;
    expect(isAddressOnChain('ERC20', a)).toBe(true);
    expect(isAddressOnChain('ERC20', a.toLowerCase())).toBe(true);
    expect(isAddressOnChain('ERC20', `0x${a.slice(2).toUpperCase()}`)).toBe(true);
    // One letter's case flipped: a mistyped checksum address.
    expect(isAddressOnChain('ERC20', a.replace('aA', 'aa'))).toBe(false);
    expect(isAddressOnChain('ERC20', a.slice(0, -1))).toBe(false);
    expect(isAddressOnChain('ERC20', `${a}0`)).toBe(false);
    expect(isAddressOnChain('ERC20', a.replace('0x', '0X'))).toBe(false);
    expect(isAddressOnChain('ERC20', P2PKH)).toBe(false);
  });

  it('validates OMNI (Bitcoin) addresses: legacy, P2SH and bc1', () => {
    for (const a of [P2PKH, P2SH, SEGWIT_V0, SEGWIT_V0_32, TAPROOT]) expect(isAddressOnChain('OMNI', a), a).toBe(true);
    for (const a of [`${P2PKH.slice(0, -1)}b`, '2NBFNJTktNa7GZusGbDbGKRZTxdK9VVez3n', EIP55[0] ?? '', 'bc1qqqqq']) {
      expect(isAddressOnChain('OMNI', a), a).toBe(false);
    }
  });

  it('stores one spelling per address', () => {
    expect(canonicalAddress('ERC20', (EIP55[0] ?? '').toLowerCase())).toBe(EIP55[0]);
    expect(canonicalAddress('OMNI', SEGWIT_V0)).toBe(SEGWIT_V0.toLowerCase());
    expect(canonicalAddress('OMNI', P2PKH)).toBe(P2PKH);
  });
});

describe('address requests', () => {
  const valid = {
    coin: 'usdt',
    chain: 'erc20',
    address: ` ${(EIP55[1] ?? '').toLowerCase()} `,
    label: '',
    fund_password: '123456',
    code: '654321',
  };
  const firstIssue = (v: unknown) => {
    const r = addAddressRequest.safeParse(v);
    return r.success ? null : { message: r.error.issues[0]?.message, path: r.error.issues[0]?.path.join('.') };
  };

  it('normalises coin, chain, address and an empty label', () => {
    expect(addAddressRequest.parse(valid)).toEqual({
      coin: 'USDT',
      chain: 'ERC20',
      address: EIP55[1],
      label: null,
      fund_password: '123456',
      code: '654321',
    });
  });

  it('names the field and the message of each problem', () => {
    expect(firstIssue({ ...valid, coin: 'DOGE' })).toEqual({ message: 'coinInvalid', path: 'coin' });
    expect(firstIssue({ ...valid, chain: 'TRC20' })).toEqual({ message: 'chainInvalid', path: 'chain' });
    expect(firstIssue({ ...valid, coin: 'BTC' })).toEqual({ message: 'chainInvalid', path: 'chain' });
    expect(firstIssue({ ...valid, address: '0x1234' })).toEqual({ message: 'addressInvalid', path: 'address' });
    expect(firstIssue({ ...valid, address: ' ' })).toEqual({ message: 'withdrawAddressRequired', path: 'address' });
    expect(firstIssue({ ...valid, fund_password: '' })).toEqual({
      message: 'fundPasswordRequired',
      path: 'fund_password',
    });
    expect(firstIssue({ ...valid, fund_password: '12345' })).toEqual({
      message: 'fundPasswordFormat',
      path: 'fund_password',
    });
    expect(firstIssue({ ...valid, code: '' })).toEqual({ message: 'codeRequired', path: 'code' });
    expect(firstIssue({ ...valid, label: 'x'.repeat(31) })).toEqual({ message: 'tooLong', path: 'label' });
  });

  it('checks the chain for apv_address but leaves the address to the answer', () => {
    expect(apvAddressRequest.safeParse({ coin: 'ETH', chain: 'OMNI', address: P2PKH }).success).toBe(false);
    expect(apvAddressRequest.safeParse({ coin: 'ETH', chain: 'ERC20', address: 'nonsense' }).success).toBe(true);
  });
});
