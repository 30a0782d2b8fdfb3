import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withBigId } from '../../../platform/db/migration-kit';

/** Option contracts. Shipped: never edit, add a new migration. */
export const migration0011: DomainMigration = {
  name: '0011_options',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    const id = withBigId(kind);
    // One row per contract, with the terms it was bought under (period, ratio), its entry and exit ticks and result.
    // `state` leaves waiting and running once each, by conditional updates; the stake is a ledger hold in the option
    // account of the contract's book (real or simulator) until the contract settles.
    await db.schema
      .createTable('option_contracts')
      .$call(id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('book', 'varchar(10)', (c) => c.notNull())
      .addColumn('symbol', 'varchar(16)', (c) => c.notNull())
      .addColumn('direction', 'varchar(4)', (c) => c.notNull())
      .addColumn('seconds', 'integer', (c) => c.notNull())
      .addColumn('ratio', 'varchar(20)', (c) => c.notNull())
      .addColumn('currency', 'varchar(8)', (c) => c.notNull())
      .addColumn('stake', 'bigint', (c) => c.notNull())
      .addColumn('hold_id', 'bigint', (c) => c.notNull().references('ledger_holds.id'))
      .addColumn('state', 'varchar(10)', (c) => c.notNull())
      .addColumn('entry_seq', 'bigint')
      .addColumn('entry_ts', 'bigint')
      .addColumn('entry_price', 'varchar(40)')
      .addColumn('expiry_ts', 'bigint')
      .addColumn('exit_seq', 'bigint')
      .addColumn('exit_ts', 'bigint')
      .addColumn('exit_price', 'varchar(40)')
      .addColumn('payout', 'bigint')
      .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('request_digest', 'varchar(64)', (c) => c.notNull())
      .addColumn('accepted_at', 'bigint', (c) => c.notNull())
      .addColumn('settled_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint(
        'option_contracts_state',
        sql`state in ('waiting', 'running', 'won', 'lost', 'flat', 'refunded', 'cancelled')`,
      )
      .execute();
    await db.schema
      .createIndex('option_contracts_request')
      .unique()
      .on('option_contracts')
      .columns(['user_id', 'request_id'])
      .execute();
    await db.schema.createIndex('option_contracts_user').on('option_contracts').columns(['user_id', 'id']).execute();
    // The settlement job finds running contracts by expiry; the engine finds waiting ones by state.
    await db.schema
      .createIndex('option_contracts_open')
      .on('option_contracts')
      .columns(['state', 'expiry_ts'])
      .execute();
  },
};
