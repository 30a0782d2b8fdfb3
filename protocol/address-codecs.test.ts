import { describe, expect, it } from 'vitest';
import { base58CheckDecode, eip55, segwitDecode, toHex } from './address-codecs';
import { canonicalAddress, isAddressOnChain } from './chains';

/**
 * Published test vectors. BIP 350's valid list supersedes BIP 173's (whose version 1+ examples used Bech32 and
 * are invalid now); each valid address comes with its scriptPubKey (version opcode, push length, program).
 */
const SEGWIT_VALID: [address: string, hrp: string, scriptPubKey: string][] = [
  ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'bc', '0014751e76e8199196d454941c45d1b3a323f1433bd6'],
  [
    'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
    'tb',
    '00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262',
  ],
  [
    'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y',
    'bc',
    '5128751e76e8199196d454941c45d1b3a323f1433bd6751e76e8199196d454941c45d1b3a323f1433bd6',
  ],
  ['BC1SW50QGDZ25J', 'bc', '6002751e'],
  ['bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', 'bc', '5210751e76e8199196d454941c45d1b3a323'],
  [
    'tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy',
    'tb',
    '0020000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433',
  ],
  [
    'tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c',
    'tb',
    '5120000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433',
  ],
  [
    'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
    'bc',
    '512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798',
  ],
  // BIP 173's mainnet P2WSH example.
  [
    'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3',
    'bc',
    '00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262',
  ],
];

/** BIP 173's and BIP 350's invalid address lists (none of them decodes for `bc`), with the reason they give. */
const SEGWIT_INVALID: [address: string, reason: string][] = [
  // BIP 173
  ['tc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty', 'invalid human-readable part'],
  ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'invalid checksum'],
  ['BC13W508D6QEJXTDG4Y5R3ZARVARY0C5XW7KN40WF2', 'invalid witness version'],
  ['bc1rw5uspcuh', 'invalid program length'],
  ['bc10w508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kw5rljs90', 'invalid program length'],
  ['BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', 'invalid program length for witness version 0'],
  ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7', 'mixed case'],
  ['bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du', 'zero padding of more than 4 bits'],
  ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3pjxtptv', 'non-zero padding in 8-to-5 conversion'],
  ['bc1gmk9yu', 'empty data section'],
  // BIP 173's former valid version 1, 16 and 2 examples: Bech32 where BIP 350 requires Bech32m
  ['bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx', 'Bech32 for version 1'],
  ['BC1SW50QA3JX3S', 'Bech32 for version 16'],
  ['bc1zw508d6qejxtdg4y5r3zarvaryvg6kdaj', 'Bech32 for version 2'],
  // BIP 350
  ['tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut', 'invalid human-readable part'],
  ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', 'Bech32 instead of Bech32m'],
  ['tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf', 'Bech32 instead of Bech32m'],
  ['BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL', 'Bech32 instead of Bech32m'],
  ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', 'Bech32m instead of Bech32'],
  ['tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47', 'Bech32m instead of Bech32'],
  ['bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4', 'invalid character in checksum'],
  ['BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R', 'invalid witness version'],
  ['bc1pw5dgrnzv', 'invalid program length (1 byte)'],
  ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav', 'program length (41 bytes)'],
  ['BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', 'invalid program length for witness version 0'],
  ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq', 'mixed case'],
  ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf', 'zero padding of more than 4 bits'],
  ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j', 'non-zero padding in 8-to-5 conversion'],
];

/** EIP-55's examples: all caps, all lower case and mixed case, each already in its checksum spelling. */
const EIP55 = [
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  '0xde709f2102306220921060314715629080e2fb77',
  '0x27b1fdb04752bbc536007a920d24acb045561c26',
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];

/** Well-known mainnet Base58Check addresses and the version byte + hash160 they carry. */
const BASE58_VALID: [address: string, payload: string][] = [
  // The genesis block's coinbase.
  ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', '0062e907b15cbf27d5425399ebf6f0fb50ebb88f18'],
  // The compressed public key of private key 1 (same hash160 as BIP 173's example program).
  ['1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH', '00751e76e8199196d454941c45d1b3a323f1433bd6'],
  // All-zero hash160: every leading zero byte is a leading '1'.
  ['1111111111111111111114oLvT2', '000000000000000000000000000000000000000000'],
  // The Bitcoin wiki's P2SH example.
  ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', '05b472a266d0bd89c13706a4132ccfb16f7c3b9fcb'],
];

const BASE58_INVALID = [
  '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', // last character changed
  '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfMa', // one character changed
  '1A1zP1eP5QGefi2DMPTfTL5SLmv7DiyfNa', // one character changed
  'A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', // one character dropped
  '1A1zP1eP5QGefi2DMPTfTL5SLmv7DvifNa', // two characters swapped
  '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN0', // '0' is not Base58
  '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNl', // nor is 'l'
  '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz', // P2SH, last character changed
  '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNL', // P2SH, truncated
  '3QJmnh', // an empty payload with its right checksum
  '',
];

describe('SegWit addresses: BIP 173 and BIP 350 vectors', () => {
  it.each(SEGWIT_VALID)('decodes %s', (address, hrp, scriptPubKey) => {
    const decoded = segwitDecode(address, hrp);
    expect(decoded).not.toBeNull();
    const { version, program } = decoded ?? { version: -1, program: [] };
    const opcode = version === 0 ? 0 : 0x50 + version;
    expect(toHex(Uint8Array.from([opcode, program.length, ...program]))).toBe(scriptPubKey);
  });

  it.each(SEGWIT_INVALID)('refuses %s (%s)', (address) => {
    expect(segwitDecode(address, 'bc')).toBeNull();
    expect(segwitDecode(address, 'tb')).toBeNull();
  });

  it('accepts the mainnet ones as OMNI addresses, stored in lower case, and refuses every invalid one', () => {
    for (const [address, hrp] of SEGWIT_VALID) {
      expect(isAddressOnChain('OMNI', address), address).toBe(hrp === 'bc');
      if (hrp === 'bc') expect(canonicalAddress('OMNI', address)).toBe(address.toLowerCase());
    }
    for (const [address] of SEGWIT_INVALID) expect(isAddressOnChain('OMNI', address), address).toBe(false);
  });
});

describe('ERC20 addresses: EIP-55 vectors', () => {
  it.each(EIP55)('spells %s from any case and accepts it', (address) => {
    expect(eip55(address.toLowerCase())).toBe(address);
    expect(eip55(`0x${address.slice(2).toUpperCase()}`)).toBe(address);
    expect(isAddressOnChain('ERC20', address)).toBe(true);
    expect(canonicalAddress('ERC20', address.toLowerCase())).toBe(address);
  });

  it.each(EIP55.filter((a) => /[a-f]/.test(a) && /[A-F]/.test(a)))('refuses %s with one letter flipped', (address) => {
    for (let i = 2; i < address.length; i++) {
      const ch = address[i] ?? '';
      const flipped = ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase();
      if (flipped === ch) continue;
      const typo = address.slice(0, i) + flipped + address.slice(i + 1);
      // Flipping the only lower (or upper) case letter leaves an all-one-case address, which carries no checksum.
      const oneCase = typo.slice(2) === typo.slice(2).toLowerCase() || typo.slice(2) === typo.slice(2).toUpperCase();
      expect(isAddressOnChain('ERC20', typo), typo).toBe(oneCase);
    }
  });
});

describe('OMNI legacy addresses: Base58Check', () => {
  it.each(BASE58_VALID)('decodes %s', (address, payload) => {
    expect(toHex(base58CheckDecode(address) ?? new Uint8Array())).toBe(payload);
    expect(isAddressOnChain('OMNI', address)).toBe(true);
    expect(canonicalAddress('OMNI', address)).toBe(address);
  });

  it.each(BASE58_INVALID)('refuses %j', (address) => {
    expect(base58CheckDecode(address)).toBeNull();
    expect(isAddressOnChain('OMNI', address)).toBe(false);
  });

  it('refuses a valid Base58Check address of another network', () => {
    // Testnet P2PKH (version 0x6f) for the hash160 of private key 1.
    expect(toHex(base58CheckDecode('mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r') ?? new Uint8Array())).toBe(
      '6f751e76e8199196d454941c45d1b3a323f1433bd6',
    );
    expect(isAddressOnChain('OMNI', 'mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r')).toBe(false);
  });
});
