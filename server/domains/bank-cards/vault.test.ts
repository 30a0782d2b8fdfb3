import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataKeyFileOf, loadDataKey, parseDataKey } from './data-key';
import { CardVault, SealedValueError } from './vault';

const KEY = new Uint8Array(32).map((_, i) => i);
const OTHER_KEY = new Uint8Array(32).fill(1);

describe('CardVault', () => {
  const vault = new CardVault(KEY);

  it('seals with a fresh nonce each time and opens for the same user and column only', () => {
    const a = vault.seal('card_number', 7, '4111111111111111');
    const b = vault.seal('card_number', 7, '4111111111111111');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^xc1\.[A-Za-z0-9_-]+$/);
    expect(a).not.toContain('4111');
    expect(vault.open('card_number', 7, a)).toBe('4111111111111111');
    // Moved to another user's row or another column, it no longer opens.
    expect(() => vault.open('card_number', 8, a)).toThrow(SealedValueError);
    expect(() => vault.open('iban', 7, a)).toThrow(SealedValueError);
    // Nor under another key, nor with one character changed, nor when it is no sealed value at all.
    expect(() => new CardVault(OTHER_KEY).open('card_number', 7, a)).toThrow(SealedValueError);
    const flipped = `${a.slice(0, -2)}${a.at(-2) === 'A' ? 'B' : 'A'}${a.at(-1)}`;
    expect(() => vault.open('card_number', 7, flipped)).toThrow(SealedValueError);
    expect(() => vault.open('card_number', 7, '4111111111111111')).toThrow(SealedValueError);
  });

  it('hashes card numbers with a key of its own, per user', () => {
    const hash = vault.cardNumberHash(7, '4111111111111111');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(vault.cardNumberHash(7, '4111111111111111')).toBe(hash);
    expect(vault.cardNumberHash(8, '4111111111111111')).not.toBe(hash);
    expect(new CardVault(OTHER_KEY).cardNumberHash(7, '4111111111111111')).not.toBe(hash);
    expect(vault.keyId).toMatch(/^[0-9a-f]{32}$/);
    expect(new CardVault(OTHER_KEY).keyId).not.toBe(vault.keyId);
  });
});

describe('the data key', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-key-'));
    dirs.push(dir);
    return path.join(dir, 'data');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads 32 bytes as hex or base64 and refuses anything else', () => {
    expect(parseDataKey(Buffer.from(KEY).toString('hex'))).toEqual(KEY);
    expect(parseDataKey(` ${Buffer.from(KEY).toString('base64')}\n`)).toEqual(KEY);
    expect(parseDataKey(Buffer.from(KEY).toString('base64url'))).toEqual(KEY);
    for (const bad of ['', 'secret', 'ab'.repeat(31), Buffer.alloc(16).toString('base64'), 'z'.repeat(64)]) {
      expect(() => parseDataKey(bad), bad).toThrow(/DATA_KEY must be 32 bytes/);
    }
  });

  it('creates DATA_DIR/data.key (mode 0600) on first start and reads it afterwards; DATA_KEY wins', () => {
    const dataDir = tempDir();
    expect(() => loadDataKey({ dataDir }, { create: false })).toThrow(/no data key/);
    const first = loadDataKey({ dataDir });
    expect(first).toMatchObject({ origin: 'file', created: true, file: dataKeyFileOf(dataDir) });
    expect(fs.statSync(dataKeyFileOf(dataDir)).mode & 0o777).toBe(0o600);
    const again = loadDataKey({ dataDir });
    expect(again.created).toBeUndefined();
    expect(again.key).toEqual(first.key);
    const env = loadDataKey({ dataDir, dataKey: Buffer.from(KEY).toString('hex') });
    expect(env).toEqual({ key: KEY, origin: 'env' });
    fs.writeFileSync(dataKeyFileOf(dataDir), 'not a key');
    expect(() => loadDataKey({ dataDir })).toThrow(/data\.key must be 32 bytes/);
  });
});
