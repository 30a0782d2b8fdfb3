import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { randomBytes } from '@noble/ciphers/utils.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import { DATA_KEY_BYTES } from './data-key';

/**
 * The columns kept encrypted (bank cards; C2C payment details; operators' TOTP secrets, sealed per operator id); the
 * name is part of each value's associated data.
 */
export type SealedColumn =
  | 'card_number'
  | 'bank_account'
  | 'iban'
  | 'c2c_pay_methods'
  | 'c2c_pay_info'
  | 'operator_totp_secret';

/** Format tag of a sealed value: XChaCha20-Poly1305, keys derived as below. A new scheme gets a new tag. */
const TAG = 'xc1.';
const NONCE_BYTES = 24;

const derive = (key: Uint8Array, purpose: string, length = 32) =>
  hkdf(sha256, key, undefined, utf8ToBytes(`tradewave ${purpose}`), length);

/** Thrown when a stored value does not open under this key: another key, or a value changed or moved in the table. */
export class SealedValueError extends Error {
  constructor(column: SealedColumn) {
    super(`a stored ${column} cannot be decrypted: wrong data key, or the row was altered`);
    this.name = 'SealedValueError';
  }
}

/**
 * Encryption of bank card numbers, bank accounts and IBANs under the data key (data-key.ts). Each value is sealed
 * with XChaCha20-Poly1305 under a random 24-byte nonce, with the column and the owning user as associated data, so
 * a value copied into another row or column does not open. Uniqueness of a user's card numbers goes through a keyed
 * hash (HMAC-SHA-256 of user and number) in a column of its own. Both keys are derived from the data key with HKDF,
 * and so is `keyId`, which the database keeps to notice a server started with the wrong key.
 */
export class CardVault {
  readonly keyId: string;
  private readonly sealKey: Uint8Array;
  private readonly lookupKey: Uint8Array;

  constructor(dataKey: Uint8Array) {
    if (dataKey.length !== DATA_KEY_BYTES) throw new Error(`the data key must be ${DATA_KEY_BYTES} bytes`);
    this.sealKey = derive(dataKey, 'bank_cards seal v1');
    this.lookupKey = derive(dataKey, 'bank_cards lookup v1');
    this.keyId = bytesToHex(derive(dataKey, 'data key id', 16));
  }

  seal(column: SealedColumn, userId: number, value: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const sealed = xchacha20poly1305(this.sealKey, nonce, associatedData(column, userId)).encrypt(utf8ToBytes(value));
    return TAG + Buffer.concat([nonce, sealed]).toString('base64url');
  }

  open(column: SealedColumn, userId: number, stored: string): string {
    if (!stored.startsWith(TAG)) throw new SealedValueError(column);
    const bytes = Buffer.from(stored.slice(TAG.length), 'base64url');
    try {
      const cipher = xchacha20poly1305(this.sealKey, bytes.subarray(0, NONCE_BYTES), associatedData(column, userId));
      return Buffer.from(cipher.decrypt(bytes.subarray(NONCE_BYTES))).toString('utf8');
    } catch {
      throw new SealedValueError(column);
    }
  }

  /** The keyed hash that stands in for a (normalised) card number in the unique index. */
  cardNumberHash(userId: number, cardNumber: string): string {
    return bytesToHex(hmac(sha256, this.lookupKey, utf8ToBytes(`${userId}:${cardNumber}`)));
  }
}

const associatedData = (column: SealedColumn, userId: number) => utf8ToBytes(`bank_cards.${column}|user:${userId}`);

/** The `platform_settings` entry with the id of the data key the stored bank card values are sealed under. */
export const DATA_KEY_ID_SETTING = 'data_key_id';

/** The server's data key is not the one the stored values are sealed under (a wrong DATA_KEY, or a rotation). */
export class DataKeyMismatchError extends Error {
  constructor() {
    super(
      'the data key (DATA_KEY or DATA_DIR/data.key) is not the key the bank cards are encrypted with; after ' +
        '`ops data-key rotate` every server process must restart with the new key',
    );
    this.name = 'DataKeyMismatchError';
  }
}

/**
 * Makes sure `vault`'s key is the database's data key (recording it when the database has none yet); throws
 * DataKeyMismatchError otherwise. `forShare` (PostgreSQL, inside a writing transaction) holds the entry until commit,
 * so a rotation cannot slip in between this check and the values written under the checked key.
 */
export async function assertDataKey(db: Kysely<Database>, vault: CardVault, forShare = false): Promise<void> {
  const read = () => {
    const query = db.selectFrom('platform_settings').select('value').where('key', '=', DATA_KEY_ID_SETTING);
    return (forShare ? query.forShare() : query).executeTakeFirst();
  };
  let stored = await read();
  if (!stored) {
    await db
      .insertInto('platform_settings')
      .values({ key: DATA_KEY_ID_SETTING, value: vault.keyId })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    stored = await read();
  }
  if (stored?.value !== vault.keyId) throw new DataKeyMismatchError();
}
