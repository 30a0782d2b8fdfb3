import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withBigId } from '../../../platform/db/migration-kit';

/** Finance products and orders. Shipped: never edit, add a new migration. */
export const migration0013: DomainMigration = {
  name: '0013_finance',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    const id = withBigId(kind);
    // Products as the operator configured them; a change is audited and applies to orders bought afterwards
    // (an order copies its terms). Amounts are minor units of the currency.
    await db.schema
      .createTable('finance_products')
      .$call(id)
      .addColumn('family', 'varchar(8)', (c) => c.notNull())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('currency', 'varchar(16)', (c) => c.notNull())
      .addColumn('cycle_days', 'integer', (c) => c.notNull())
      .addColumn('daily_rate', 'varchar(20)', (c) => c.notNull())
      .addColumn('min_amount', 'bigint', (c) => c.notNull())
      .addColumn('max_amount', 'bigint', (c) => c.notNull())
      .addColumn('penalty_kind', 'varchar(20)', (c) => c.notNull())
      .addColumn('penalty_value', 'varchar(20)', (c) => c.notNull())
      .addColumn('on_sale', 'integer', (c) => c.notNull())
      .addColumn('recommended', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('finance_products_family', sql`family in ('trust', 'hosting')`)
      .addCheckConstraint('finance_products_cycle', sql`cycle_days >= 1`)
      .execute();
    // One row per purchase with the terms it was bought under. `days_paid` only grows, by conditional updates in the
    // transaction that posts the day's interest (whose ledger request id also names the order and the day), so no day
    // is paid twice; `next_due_at` is when the next day's interest is due (null once ended).
    await db.schema
      .createTable('finance_orders')
      .$call(id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('product_id', 'bigint', (c) => c.notNull().references('finance_products.id'))
      .addColumn('family', 'varchar(8)', (c) => c.notNull())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('currency', 'varchar(16)', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('daily_rate', 'varchar(20)', (c) => c.notNull())
      .addColumn('cycle_days', 'integer', (c) => c.notNull())
      .addColumn('penalty_kind', 'varchar(20)', (c) => c.notNull())
      .addColumn('penalty_value', 'varchar(20)', (c) => c.notNull())
      .addColumn('daily_interest', 'bigint', (c) => c.notNull())
      .addColumn('start_day', 'integer', (c) => c.notNull())
      .addColumn('days_paid', 'integer', (c) => c.notNull())
      .addColumn('income', 'bigint', (c) => c.notNull())
      .addColumn('state', 'varchar(10)', (c) => c.notNull())
      .addColumn('next_due_at', 'bigint')
      .addColumn('principal_hold_id', 'bigint', (c) => c.notNull().references('ledger_holds.id'))
      .addColumn('penalty', 'bigint')
      .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('request_digest', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('ended_at', 'bigint')
      .addCheckConstraint('finance_orders_state', sql`state in ('hosting', 'completed', 'redeemed')`)
      .addCheckConstraint('finance_orders_days', sql`days_paid >= 0 and days_paid <= cycle_days`)
      .execute();
    await db.schema
      .createIndex('finance_orders_request')
      .unique()
      .on('finance_orders')
      .columns(['user_id', 'request_id'])
      .execute();
    await db.schema
      .createIndex('finance_orders_user')
      .on('finance_orders')
      .columns(['user_id', 'state', 'id'])
      .execute();
    // The accrual job reads running orders by when their next day is due.
    await db.schema.createIndex('finance_orders_due').on('finance_orders').columns(['next_due_at', 'id']).execute();
  },
};
