import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withBigId } from '../../../platform/db/migration-kit';

/** Lever positions. Shipped: never edit, add a new migration. */
export const migration0012: DomainMigration = {
  name: '0012_lever',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    const id = withBigId(kind);
    // One row per order and the position it opens, with the terms it was placed under, the ticks that decided it
    // and its money. `phase` moves forward only, by conditional updates; `version` grows with every change of the
    // row, so the engine can tell a trigger it indexed from one a user has changed since. Money is minor units of
    // USDT: the reserve (held while waiting or pending), the margin (held while open) and what the close moved.
    await db.schema
      .createTable('lever_positions')
      .$call(id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('book', 'varchar(10)', (c) => c.notNull())
      .addColumn('symbol', 'varchar(16)', (c) => c.notNull())
      .addColumn('side', 'varchar(5)', (c) => c.notNull())
      .addColumn('margin_mode', 'varchar(8)', (c) => c.notNull())
      .addColumn('order_type', 'varchar(6)', (c) => c.notNull())
      .addColumn('lots', 'bigint', (c) => c.notNull())
      .addColumn('contract_size', 'varchar(20)', (c) => c.notNull())
      .addColumn('leverage', 'integer', (c) => c.notNull())
      .addColumn('mmr', 'varchar(20)', (c) => c.notNull())
      .addColumn('fee_rate', 'varchar(20)', (c) => c.notNull())
      .addColumn('price_scale', 'integer', (c) => c.notNull())
      .addColumn('limit_price', 'varchar(40)')
      .addColumn('tp_price', 'varchar(40)')
      .addColumn('sl_price', 'varchar(40)')
      .addColumn('phase', 'varchar(10)', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('reserve', 'bigint', (c) => c.notNull())
      .addColumn('reserve_hold_id', 'bigint', (c) => c.references('ledger_holds.id'))
      .addColumn('margin', 'bigint')
      .addColumn('added_margin', 'bigint', (c) => c.notNull())
      .addColumn('margin_hold_id', 'bigint', (c) => c.references('ledger_holds.id'))
      .addColumn('open_fee', 'bigint')
      .addColumn('close_fee', 'bigint')
      .addColumn('realized_pnl', 'bigint')
      .addColumn('insurance', 'bigint')
      .addColumn('liq_price', 'varchar(40)')
      .addColumn('entry_seq', 'bigint')
      .addColumn('entry_ts', 'bigint')
      .addColumn('entry_price', 'varchar(40)')
      .addColumn('exit_seq', 'bigint')
      .addColumn('exit_ts', 'bigint')
      .addColumn('exit_price', 'varchar(40)')
      .addColumn('close_reason', 'varchar(12)')
      .addColumn('cancel_reason', 'varchar(20)')
      .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('request_digest', 'varchar(64)', (c) => c.notNull())
      // Ticks after this time are judged by the row's current terms: the entry tick's time once the engine opened
      // or rested it, the change's time after an owner's change, the acceptance before that.
      .addColumn('terms_since', 'bigint', (c) => c.notNull())
      .addColumn('accepted_at', 'bigint', (c) => c.notNull())
      .addColumn('opened_at', 'bigint')
      .addColumn('close_requested_at', 'bigint')
      .addColumn('closed_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint(
        'lever_positions_phase',
        sql`phase in ('waiting', 'pending', 'holding', 'closing', 'closed', 'cancelled')`,
      )
      .addCheckConstraint('lever_positions_lots', sql`lots >= 1`)
      .execute();
    await db.schema
      .createIndex('lever_positions_request')
      .unique()
      .on('lever_positions')
      .columns(['user_id', 'request_id'])
      .execute();
    await db.schema.createIndex('lever_positions_user').on('lever_positions').columns(['user_id', 'id']).execute();
    // The engine finds open rows by phase, and rows changed since its last look by time.
    await db.schema.createIndex('lever_positions_open').on('lever_positions').columns(['phase', 'id']).execute();
    await db.schema.createIndex('lever_positions_changed').on('lever_positions').column('updated_at').execute();
  },
};
