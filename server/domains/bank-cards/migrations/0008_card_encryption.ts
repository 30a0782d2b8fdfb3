import { type Kysely, sql } from 'kysely';
import { readConfig } from '../../../config';
import type { DialectKind } from '../../../platform/db/connect';
import type { DomainMigration } from '../../../platform/db/migration-kit';
import { loadDataKey } from '../data-key';
import { CardVault, DATA_KEY_ID_SETTING } from '../vault';

interface ClearCard {
  id: number;
  user_id: number;
  card_number: string;
  bank_account: string;
  iban: string;
}

const NEW_COLUMNS = [
  ['card_number_enc', 'text'],
  ['card_number_hash', 'varchar(64)'],
  ['card_last4', 'varchar(4)'],
  ['bank_account_enc', 'text'],
  ['iban_enc', 'text'],
] as const;

async function bankCardColumns(db: Kysely<unknown>, kind: DialectKind): Promise<Set<string>> {
  const { rows } =
    kind === 'postgres'
      ? await sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = 'bank_cards'`.execute(db)
      : await sql<{ name: string }>`select name from pragma_table_info('bank_cards')`.execute(db);
  return new Set(rows.map((r) => r.name));
}

/**
 * Card numbers, bank accounts and IBANs encrypted at rest (see ../vault.ts): adds the sealed columns, the card
 * number's keyed hash (now the unique index of live cards) and its last four digits, seals every existing row under
 * the data key and drops the clear-text columns and their index. The key is read only when there are rows to seal
 * (`loadKey`: DATA_KEY, else DATA_DIR/data.key, created if missing). Shipped: never edit, add a new migration.
 */
export function cardEncryptionMigration(loadKey: () => Uint8Array): DomainMigration {
  return {
    name: '0008_card_encryption',
    async up(db: Kysely<unknown>, kind: DialectKind) {
      // Kysely runs SQLite migrations outside a transaction; this one must not stop half-way with some rows sealed.
      if (kind === 'sqlite') {
        // Freed pages are overwritten, so the dropped numbers do not linger in the file (until a VACUUM would).
        const { rows } = await sql<{ secure_delete: number }>`pragma secure_delete`.execute(db);
        await sql`pragma secure_delete = on`.execute(db);
        try {
          await db.transaction().execute((trx) => encryptCards(trx, kind, loadKey));
        } finally {
          await sql.raw(`pragma secure_delete = ${rows[0]?.secure_delete ? 'on' : 'off'}`).execute(db);
        }
      } else {
        await encryptCards(db, kind, loadKey);
      }
    },
  };
}

async function encryptCards(db: Kysely<unknown>, kind: DialectKind, loadKey: () => Uint8Array): Promise<void> {
  // Already done (the migration table entry is written after this transaction): nothing to do.
  if (!(await bankCardColumns(db, kind)).has('card_number')) return;
  for (const [column, type] of NEW_COLUMNS) {
    await db.schema
      .alterTable('bank_cards')
      .addColumn(column, type, (c) => c.notNull().defaultTo(''))
      .execute();
  }
  const { rows } = await sql<ClearCard>`select id, user_id, card_number, bank_account, iban from bank_cards`.execute(
    db,
  );
  if (rows.length > 0) {
    const vault = new CardVault(loadKey());
    for (const row of rows) {
      await sql`update bank_cards set
          card_number_enc = ${vault.seal('card_number', row.user_id, row.card_number)},
          card_number_hash = ${vault.cardNumberHash(row.user_id, row.card_number)},
          card_last4 = ${row.card_number.slice(-4)},
          bank_account_enc = ${vault.seal('bank_account', row.user_id, row.bank_account)},
          iban_enc = ${vault.seal('iban', row.user_id, row.iban)}
        where id = ${row.id}`.execute(db);
    }
    await sql`insert into platform_settings (key, value) values (${DATA_KEY_ID_SETTING}, ${vault.keyId})`.execute(db);
  }
  await db.schema.dropIndex('bank_cards_live').execute();
  await db.schema
    .createIndex('bank_cards_live_hash')
    .on('bank_cards')
    .columns(['user_id', 'card_number_hash'])
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  for (const column of ['card_number', 'bank_account', 'iban']) {
    await db.schema.alterTable('bank_cards').dropColumn(column).execute();
  }
}

/** The migration as the server runs it: the data key from the environment, as the server reads it (config.ts). */
export const migration0008 = cardEncryptionMigration(() => {
  const config = readConfig();
  return loadDataKey({ dataKey: config.dataKey, dataDir: config.dataDir }).key;
});
