import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withId } from '../../../platform/db/migration-kit';

/** Bank cards and withdrawal addresses. Shipped: never edit, add a new migration. */
export const migration0005: DomainMigration = {
  name: '0005_cards_addresses',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    const id = withId(kind);
    // Where a user's withdrawals may go (SPEC 3 "Withdraw address"). Deleting keeps the row (deleted_at) so a
    // past withdrawal can still show where it went; the address is stored in its canonical spelling.
    await db.schema
      .createTable('withdraw_addresses')
      .$call(id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('coin', 'varchar(8)', (c) => c.notNull())
      .addColumn('chain', 'varchar(8)', (c) => c.notNull())
      .addColumn('address', 'varchar(100)', (c) => c.notNull())
      .addColumn('label', 'varchar(30)')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('deleted_at', 'bigint')
      .execute();
    // One live row per user, coin, chain and address: a second save of the same address is refused.
    await db.schema
      .createIndex('withdraw_addresses_live')
      .on('withdraw_addresses')
      .columns(['user_id', 'coin', 'chain', 'address'])
      .unique()
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
    await db.schema
      .createIndex('withdraw_addresses_user')
      .on('withdraw_addresses')
      .columns(['user_id', 'id'])
      .execute();

    // Bound bank cards (SPEC 3 "Bank card"), for bank withdrawals. Same soft delete.
    await db.schema
      .createTable('bank_cards')
      .$call(id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('bank_name', 'varchar(100)', (c) => c.notNull())
      .addColumn('branch_name', 'varchar(100)', (c) => c.notNull())
      .addColumn('branch_number', 'varchar(20)', (c) => c.notNull())
      .addColumn('card_number', 'varchar(19)', (c) => c.notNull())
      .addColumn('bank_address', 'varchar(200)', (c) => c.notNull())
      .addColumn('swift_code', 'varchar(11)', (c) => c.notNull())
      .addColumn('cardholder_name', 'varchar(100)', (c) => c.notNull())
      .addColumn('bank_account', 'varchar(40)', (c) => c.notNull())
      .addColumn('iban', 'varchar(34)', (c) => c.notNull())
      .addColumn('payee_address', 'varchar(200)', (c) => c.notNull())
      .addColumn('postal_code', 'varchar(12)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint')
      .addColumn('deleted_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('bank_cards_live')
      .on('bank_cards')
      .columns(['user_id', 'card_number'])
      .unique()
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
    await db.schema.createIndex('bank_cards_user').on('bank_cards').columns(['user_id', 'id']).execute();
  },
};
