import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import type { Kysely } from 'kysely';
import { readConfig } from '../../config';
import { type DatabaseHandle, handleOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import type { OpsCommand } from '../../platform/ops/commands';
import {
  createKeyFile,
  DATA_KEY_BYTES,
  type DataKeySource,
  type LoadedDataKey,
  loadDataKey,
  readKeyFile,
  replaceKeyFile,
} from './data-key';
import { withBankCards } from './tables';
import { CardVault, DATA_KEY_ID_SETTING, DataKeyMismatchError, SealedValueError } from './vault';

const USAGE = [
  'data-key rotate <new key file>   re-encrypt every bank card under the key in that file (a new random key is',
  '                                 written there, mode 0600, when it does not exist); DATA_DIR/data.key is then',
  '                                 replaced by it (with DATA_KEY set, change DATA_KEY yourself); restart servers after',
  '                                 it',
  'data-key check                   open every stored bank card with the current key (exit 1 on any failure)',
];

/**
 * Other modules' values sealed under the same data key (C2C payment details, operators' TOTP secrets): a rotation
 * moves them in its one transaction, and the check opens them too.
 */
export interface SealedData {
  /** What they are, for the output ("C2C payment detail(s)"). */
  label: string;
  reseal(trx: Kysely<Database>, from: CardVault, to: CardVault): Promise<number>;
  check(db: Kysely<Database>, vault: CardVault): Promise<{ total: number; failed: string[] }>;
}

export interface DataKeyCommandOptions {
  /** Sealed values of other modules that move with the bank cards. */
  sealed?: readonly SealedData[];
  /** Where the current key is; by default the environment, read as the server reads it (DATA_KEY, DATA_DIR). */
  source?: DataKeySource;
  /** For the name of the replaced key file kept beside the new one. */
  now?: () => number;
}

const defaultSource = (): DataKeySource => {
  const config = readConfig();
  return { dataKey: config.dataKey, dataDir: config.dataDir };
};

/**
 * The operator's data key commands (`npm run ops -- data-key …`): `rotate <new key file>` and `check`. Returns the
 * exit code; prints through `out`. Never prints a key.
 */
export async function runDataKeyCommand(
  database: DatabaseHandle,
  args: string[],
  out: (line: string) => void,
  options: DataKeyCommandOptions = {},
): Promise<number> {
  const [command, ...rest] = args;
  try {
    if (command === 'rotate' && rest.length === 1 && rest[0]) {
      return await rotate(database, rest[0], out, options);
    }
    if (command === 'check' && rest.length === 0) return await check(database, out, options);
  } catch (err) {
    if (!(err instanceof DataKeyMismatchError || err instanceof SealedValueError || err instanceof KeyError)) throw err;
    out(err.message);
    return 1;
  }
  for (const line of USAGE) out(line);
  return command === 'help' ? 0 : 1;
}

/** A problem with a key or key file the operator can fix; printed, exit 1. */
class KeyError extends Error {}

function currentKey(options: DataKeyCommandOptions): LoadedDataKey {
  try {
    return loadDataKey(options.source ?? defaultSource(), { create: false });
  } catch (err) {
    throw new KeyError(err instanceof Error ? err.message : String(err));
  }
}

/** The key in `file`, or a fresh random one written there when the file does not exist yet. */
function newKey(file: string, out: (line: string) => void): Uint8Array {
  try {
    if (fs.existsSync(file)) return readKeyFile(file);
    const key = new Uint8Array(randomBytes(DATA_KEY_BYTES));
    createKeyFile(file, key);
    out(`wrote a new random key to ${file} (mode 0600)`);
    return key;
  } catch (err) {
    throw new KeyError(err instanceof Error ? err.message : String(err));
  }
}

/**
 * Checks (and on PostgreSQL locks until commit) the database's key entry: it must name `vault`'s key. Saves hold
 * the same entry shared while they write (cards.ts), so once this returns none is under way under any key.
 */
async function lockKeyEntry(trx: Kysely<Database>, database: DatabaseHandle, vault: CardVault): Promise<void> {
  await trx
    .insertInto('platform_settings')
    .values({ key: DATA_KEY_ID_SETTING, value: vault.keyId })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const query = trx.selectFrom('platform_settings').select('value').where('key', '=', DATA_KEY_ID_SETTING);
  const stored = await (database.kind === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  if (stored?.value !== vault.keyId) throw new DataKeyMismatchError();
}

async function rotate(
  database: DatabaseHandle,
  file: string,
  out: (line: string) => void,
  options: DataKeyCommandOptions,
): Promise<number> {
  const current = currentKey(options);
  const next = newKey(file, out);
  if (timingSafeEqual(current.key, next)) {
    out('the new key is the current key: nothing to do');
    return 1;
  }
  const from = new CardVault(current.key);
  const to = new CardVault(next);
  // One transaction: every row and the key entry move to the new key together, or nothing does.
  const count = await writeTransaction(database, async (trx) => {
    await lockKeyEntry(trx, database, from);
    await trx
      .updateTable('platform_settings')
      .set({ value: to.keyId })
      .where('key', '=', DATA_KEY_ID_SETTING)
      .execute();
    const rows = await withBankCards(trx)
      .selectFrom('bank_cards')
      .select(['id', 'user_id', 'card_number_enc', 'bank_account_enc', 'iban_enc'])
      .orderBy('id')
      .execute();
    for (const row of rows) {
      const cardNumber = from.open('card_number', row.user_id, row.card_number_enc);
      await withBankCards(trx)
        .updateTable('bank_cards')
        .set({
          card_number_enc: to.seal('card_number', row.user_id, cardNumber),
          card_number_hash: to.cardNumberHash(row.user_id, cardNumber),
          bank_account_enc: to.seal(
            'bank_account',
            row.user_id,
            from.open('bank_account', row.user_id, row.bank_account_enc),
          ),
          iban_enc: to.seal('iban', row.user_id, from.open('iban', row.user_id, row.iban_enc)),
        })
        .where('id', '=', row.id)
        .execute();
    }
    const others: string[] = [];
    for (const data of options.sealed ?? []) others.push(`${await data.reseal(trx, from, to)} ${data.label}`);
    return { cards: rows.length, others };
  });
  out(`re-encrypted ${count.cards} bank card(s) under the new key`);
  for (const line of count.others) out(`re-encrypted ${line} under the new key`);
  if (current.origin === 'file' && current.file) {
    // Kept, not deleted: backups of the database from before the rotation still need it.
    const kept = `${current.file}.replaced-${new Date((options.now ?? Date.now)()).toISOString().replace(/[:.]/g, '-')}`;
    fs.copyFileSync(current.file, kept, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(kept, 0o600);
    // Renamed over the old file: there is never a moment without a key file (a server starting then would make one).
    replaceKeyFile(current.file, next);
    out(`${current.file} now holds the new key; the old one is kept in ${kept} (delete it once no backup needs it)`);
  } else {
    out(`DATA_KEY still holds the old key: set it to the key in ${file}`);
  }
  out('restart every server process now: until then they hold the old key and refuse bank card calls');
  return 0;
}

async function check(database: DatabaseHandle, out: (line: string) => void, options: DataKeyCommandOptions) {
  const vault = new CardVault(currentKey(options).key);
  const stored = await database.db
    .selectFrom('platform_settings')
    .select('value')
    .where('key', '=', DATA_KEY_ID_SETTING)
    .executeTakeFirst();
  if (stored && stored.value !== vault.keyId) throw new DataKeyMismatchError();
  const rows = await withBankCards(database.db)
    .selectFrom('bank_cards')
    .select(['id', 'user_id', 'card_number_enc', 'card_number_hash', 'bank_account_enc', 'iban_enc'])
    .execute();
  let failed = 0;
  for (const row of rows) {
    try {
      const cardNumber = vault.open('card_number', row.user_id, row.card_number_enc);
      vault.open('bank_account', row.user_id, row.bank_account_enc);
      vault.open('iban', row.user_id, row.iban_enc);
      if (vault.cardNumberHash(row.user_id, cardNumber) !== row.card_number_hash)
        throw new SealedValueError('card_number');
    } catch (err) {
      if (!(err instanceof SealedValueError)) throw err;
      failed++;
      out(`bank card ${row.id}: ${err.message}`);
    }
  }
  out(`${rows.length - failed} of ${rows.length} bank card(s) open with the current key`);
  for (const data of options.sealed ?? []) {
    const result = await data.check(database.db, vault);
    for (const which of result.failed) out(`${which}: does not open with the current key`);
    out(`${result.total - result.failed.length} of ${result.total} ${data.label} open with the current key`);
    failed += result.failed.length;
  }
  return failed === 0 ? 0 : 1;
}

/** The bank cards module's operator commands; `sealed`: other modules' values under the same key. */
export const bankCardOps = (sealed: readonly SealedData[] = []): OpsCommand[] => [
  {
    name: 'data-key',
    help: [
      [
        'data-key rotate <new key file>',
        're-encrypt every bank card (and C2C payment detail) under the key in that file',
      ],
      ['data-key check', 'open every stored bank card with the current key (exit 1 on any failure)'],
    ],
    run: (words, { db, out }) => runDataKeyCommand(handleOf(db), [...words], out, { sealed }),
  },
];
