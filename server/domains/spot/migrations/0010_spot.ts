import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withBigId } from '../../../platform/db/migration-kit';

/** Spot orders. Shipped: never edit, add a new migration. */
export const migration0010: DomainMigration = {
  name: '0010_spot',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    const id = withBigId(kind);
    // One row per order, with the terms it was placed under (RULES: an order keeps its terms) and, once filled, the
    // tick it used and what moved. Quantities, prices and amounts are exact decimal strings as on the wire; the ledger
    // holds the money. `state` leaves waiting/pending exactly once, by a conditional update (the fill or the cancel
    // that wins); `request_id` makes a retried placement return the same order.
    await db.schema
      .createTable('spot_orders')
      .$call(id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('symbol', 'varchar(16)', (c) => c.notNull())
      .addColumn('side', 'varchar(4)', (c) => c.notNull())
      .addColumn('type', 'varchar(6)', (c) => c.notNull())
      .addColumn('mode', 'varchar(8)', (c) => c.notNull())
      .addColumn('qty', 'varchar(40)')
      .addColumn('amount', 'varchar(40)')
      .addColumn('price', 'varchar(40)')
      .addColumn('fee_rate', 'varchar(20)', (c) => c.notNull())
      .addColumn('price_band', 'varchar(20)', (c) => c.notNull())
      .addColumn('hold_id', 'bigint', (c) => c.notNull().references('ledger_holds.id'))
      .addColumn('held', 'bigint', (c) => c.notNull())
      .addColumn('state', 'varchar(10)', (c) => c.notNull())
      .addColumn('cancel_reason', 'varchar(12)')
      .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('request_digest', 'varchar(64)', (c) => c.notNull())
      .addColumn('accepted_at', 'bigint', (c) => c.notNull())
      .addColumn('fill_seq', 'bigint')
      .addColumn('fill_ts', 'bigint')
      .addColumn('fill_price', 'varchar(40)')
      .addColumn('fill_qty', 'varchar(40)')
      .addColumn('fill_value', 'varchar(40)')
      .addColumn('fill_fee', 'varchar(40)')
      .addColumn('fill_total', 'varchar(40)')
      .addColumn('filled_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('spot_orders_state', sql`state in ('waiting', 'pending', 'completed', 'cancelled')`)
      .execute();
    await db.schema
      .createIndex('spot_orders_request')
      .unique()
      .on('spot_orders')
      .columns(['user_id', 'request_id'])
      .execute();
    await db.schema.createIndex('spot_orders_user').on('spot_orders').columns(['user_id', 'id']).execute();
    // The engine loads open orders at start and after a failover.
    await db.schema.createIndex('spot_orders_open').on('spot_orders').columns(['state', 'id']).execute();
  },
};
