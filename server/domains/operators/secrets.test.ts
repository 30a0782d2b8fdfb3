import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CardVault } from '../bank-cards';
import { isSealedValueError, openTotpSecret, sealTotpSecret } from './secrets';

describe('TOTP secrets at rest', () => {
  const vault = new CardVault(new Uint8Array(randomBytes(32)));
  const opens = (run: () => unknown) => {
    try {
      run();
      return true;
    } catch (err) {
      if (!isSealedValueError(err)) throw err;
      return false;
    }
  };

  it('seals and opens; the sealed text shows nothing of the secret and differs each time', () => {
    const sealed = sealTotpSecret(vault, 7, 'JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DP');
    expect(sealTotpSecret(vault, 7, 'JBSWY3DPEHPK3PXP')).not.toBe(sealed);
    expect(openTotpSecret(vault, 7, sealed)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('does not open under another key, for another operator, as another column, or altered', () => {
    const sealed = sealTotpSecret(vault, 7, 'JBSWY3DPEHPK3PXP');
    expect(opens(() => openTotpSecret(new CardVault(new Uint8Array(randomBytes(32))), 7, sealed))).toBe(false);
    expect(opens(() => openTotpSecret(vault, 8, sealed))).toBe(false);
    expect(opens(() => vault.open('card_number', 7, sealed))).toBe(false);
    // One character of the ciphertext changed (in the middle: the last one may only carry padding bits).
    const at = Math.floor(sealed.length / 2);
    const altered = `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`;
    expect(opens(() => openTotpSecret(vault, 7, altered))).toBe(false);
  });
});
