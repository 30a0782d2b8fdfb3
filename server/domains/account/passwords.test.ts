import { describe, expect, it } from 'vitest';
import { PasswordHasher, PRODUCTION_HASH_COST } from './passwords';

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher({ memoryCost: 256, timeCost: 1 });

  it('hashes with argon2id and a random salt', async () => {
    const a = await hasher.hash('secret1');
    const b = await hasher.hash('secret1');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=256,t=1,p=1\$/);
    expect(a).not.toBe(b);
    expect(await hasher.verify(a, 'secret1')).toBe(true);
    expect(await hasher.verify(a, 'secret2')).toBe(false);
  });

  it('treats an unreadable hash as a mismatch', async () => {
    expect(await hasher.verify('not a hash', 'secret1')).toBe(false);
    expect(await hasher.verifyDecoy('secret1')).toBe(false);
  });

  it('defaults to a production cost', async () => {
    expect(PRODUCTION_HASH_COST.memoryCost).toBeGreaterThanOrEqual(19_456);
    expect(await new PasswordHasher().hash('x')).toMatch(/m=19456,t=2,p=1/);
  });
});
