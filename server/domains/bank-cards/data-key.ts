import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The data key: 32 random bytes that encrypt bank card numbers, bank accounts and IBANs at rest (see vault.ts). It
 * lives outside the database: DATA_KEY (64 hex digits or base64), or else the file DATA_DIR/data.key, created with
 * mode 0600 on first start. Losing it loses the stored numbers; `npm run ops -- data-key rotate <file>` moves every
 * row to a new key.
 */
export const DATA_KEY_BYTES = 32;

export const dataKeyFileOf = (dataDir: string) => path.join(dataDir, 'data.key');

/** Where the key comes from: DATA_KEY's text when set, else the key file under `dataDir`. */
export interface DataKeySource {
  dataKey?: string | undefined;
  dataDir: string;
}

export interface LoadedDataKey {
  key: Uint8Array;
  origin: 'env' | 'file';
  /** The key file, when the key came from (or was just written to) one. */
  file?: string;
  created?: boolean;
}

/** 32 bytes written as 64 hex digits or as base64 (standard or URL alphabet); anything else throws, naming `what`. */
export function parseDataKey(text: string, what = 'DATA_KEY'): Uint8Array {
  const value = text.trim();
  let bytes: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(value)) bytes = Buffer.from(value, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) bytes = Buffer.from(value, 'base64');
  if (bytes?.length !== DATA_KEY_BYTES) {
    throw new Error(`${what} must be ${DATA_KEY_BYTES} bytes written as 64 hex digits or base64`);
  }
  return new Uint8Array(bytes);
}

const codeOf = (err: unknown) => (err instanceof Error && 'code' in err ? err.code : undefined);

/** Writes `key` (base64) to a new file readable by the owner only; never overwrites. */
export function createKeyFile(file: string, key: Uint8Array): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `${Buffer.from(key).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
}

/** Replaces a key file with `key` at once (a new owner-only file renamed over it), so no reader sees half a key. */
export function replaceKeyFile(file: string, key: Uint8Array): void {
  const next = `${file}.${process.pid}.new`;
  fs.rmSync(next, { force: true });
  createKeyFile(next, key);
  fs.renameSync(next, file);
}

/** Reads a key file (hex or base64 text). */
export function readKeyFile(file: string): Uint8Array {
  return parseDataKey(fs.readFileSync(file, 'utf8'), file);
}

/**
 * The data key of `source`: DATA_KEY when set, else the key file, which is created with a fresh random key when
 * missing (unless `create` is false: then a missing file throws).
 */
export function loadDataKey(source: DataKeySource, options: { create?: boolean } = {}): LoadedDataKey {
  if (source.dataKey?.trim()) return { key: parseDataKey(source.dataKey), origin: 'env' };
  const file = dataKeyFileOf(source.dataDir);
  try {
    return { key: readKeyFile(file), origin: 'file', file };
  } catch (err) {
    if (codeOf(err) !== 'ENOENT') throw err;
    if (options.create === false) {
      throw new Error(`no data key: set DATA_KEY, or start the server once so that it creates ${file}`);
    }
  }
  const key = new Uint8Array(randomBytes(DATA_KEY_BYTES));
  try {
    createKeyFile(file, key);
  } catch (err) {
    // Another process starting at the same moment wrote it first: use theirs.
    if (codeOf(err) === 'EEXIST') return { key: readKeyFile(file), origin: 'file', file };
    throw err;
  }
  return { key, origin: 'file', file, created: true };
}

let ephemeral: Uint8Array | undefined;

/**
 * A random key for this process only: what buildApp uses when it is given none (tests). Cards saved under it cannot
 * be read by any other process, so the server itself always passes the real key.
 */
export const ephemeralDataKey = (): Uint8Array => {
  ephemeral ??= new Uint8Array(randomBytes(DATA_KEY_BYTES));
  return ephemeral;
};
