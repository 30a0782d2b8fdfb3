import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../platform/db/connect';
import type { DomainMigration } from '../../platform/db/migration-kit';

/**
 * The currencies the ledger keeps besides the static coins (amounts.ts): a coin listed at run time becomes one in the
 * listing's transaction, and every process loads them at start and polls for new ones. Filled here from the coins
 * listed before this migration (8 decimals, as every listed coin has had). Shipped: never edit, add a new migration.
 */
export const migration0026: DomainMigration = {
  name: '0026_ledger_currencies',
  async up(db: Kysely<unknown>, _kind: DialectKind) {
    await db.schema
      .createTable('ledger_currencies')
      .addColumn('symbol', 'varchar(12)', (c) => c.primaryKey())
      .addColumn('scale', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('ledger_currencies_scale', sql`scale between 0 and 12`)
      .execute();
    await sql`insert into ledger_currencies (symbol, scale, created_at)
      select symbol, 8, created_at from listed_coins`.execute(db);
  },
};
