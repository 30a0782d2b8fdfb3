import type { Kysely } from 'kysely';
import type { DialectKind } from '../../platform/db/connect';
import { type DomainMigration, withId } from '../../platform/db/migration-kit';

/** The price record and favourites. Shipped: never edit, add a new migration. */
export const migration0002: DomainMigration = {
  name: '0002_market',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    const id = withId(kind);
    await db.schema
      .createTable('price_ticks')
      .$call(id)
      .addColumn('instrument_id', 'integer', (c) => c.notNull())
      .addColumn('symbol', 'varchar(16)', (c) => c.notNull())
      .addColumn('ts', 'bigint', (c) => c.notNull())
      .addColumn('price', 'varchar(40)', (c) => c.notNull())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('price_ticks_symbol_ts').on('price_ticks').columns(['symbol', 'ts']).execute();
    await db.schema.createIndex('price_ticks_ts').on('price_ticks').column('ts').execute();

    await db.schema
      .createTable('favourites')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('symbol', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('favourites_pk', ['user_id', 'symbol'])
      .execute();
  },
};
