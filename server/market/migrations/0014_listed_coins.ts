import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../platform/db/connect';
import type { DomainMigration } from '../../platform/db/migration-kit';

/**
 * Coins listed while the market runs (an IEO's listing, server/market/listing): each row is an instrument every server
 * process loads at start and polls for, so they all serve it. Shipped: never edit, add a new migration.
 */
export const migration0014: DomainMigration = {
  name: '0014_listed_coins',
  async up(db: Kysely<unknown>, _kind: DialectKind) {
    // The id is the instrument id, chosen by listCoin from 1000 up so it never meets a static instrument's (1-110);
    // no sequence, whose numbers a rolled-back listing would skip. Prices and the walk's parameters are decimal text,
    // read the same way by every process (their walks must match tick for tick).
    await db.schema
      .createTable('listed_coins')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('symbol', 'varchar(12)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('price_scale', 'integer', (c) => c.notNull())
      .addColumn('qty_scale', 'integer', (c) => c.notNull())
      .addColumn('start_price', 'varchar(40)', (c) => c.notNull())
      .addColumn('sigma_per_minute', 'varchar(20)', (c) => c.notNull())
      .addColumn('trade_size', 'varchar(40)', (c) => c.notNull())
      .addColumn('listed_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('listed_coins_id', sql`id >= 1000`)
      .addCheckConstraint('listed_coins_scales', sql`price_scale between 0 and 8 and qty_scale between 0 and 8`)
      .execute();
  },
};
