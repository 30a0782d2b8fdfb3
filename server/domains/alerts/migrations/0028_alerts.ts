import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withId } from '../../../platform/db/migration-kit';

/** Price alerts (RULES "Price alerts"). Shipped: never edit, add a new migration. */
export const migration0028: DomainMigration = {
  name: '0028_alerts',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    // One row per alert. `price` is exact decimal text on the instrument's step. `checked_ts`/`checked_seq` is how far
    // the price record was checked for it: every recorded tick after that point (by time, then sequence) is still to
    // be checked; it starts at the creation time with no sequence ("every tick after created_at"). The checking job
    // moves it forward, so a restart or a new lease holder reads only what is left. `fired_*` name the tick that
    // fired it and the price record's batch sealing that tick.
    await db.schema
      .createTable('price_alerts')
      .$call(withId(kind))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('symbol', 'varchar(16)', (c) => c.notNull())
      .addColumn('quote', 'varchar(8)', (c) => c.notNull())
      .addColumn('side', 'varchar(8)', (c) => c.notNull())
      .addColumn('price', 'varchar(40)', (c) => c.notNull())
      .addColumn('state', 'varchar(8)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('checked_ts', 'bigint', (c) => c.notNull())
      .addColumn('checked_seq', 'bigint')
      .addColumn('fired_at', 'bigint')
      .addColumn('fired_seq', 'bigint')
      .addColumn('fired_ts', 'bigint')
      .addColumn('fired_price', 'varchar(40)')
      .addColumn('fired_batch', 'bigint')
      .addColumn('fired_hash', 'varchar(64)')
      .addCheckConstraint('price_alerts_side', sql`side in ('above', 'below')`)
      .addCheckConstraint('price_alerts_state', sql`state in ('active', 'fired')`)
      // A fired alert names its tick; an active one none of it. The batch and its hash are there whenever the tick
      // was sealed when it fired (always, as the job reads only sealed ticks), but the rule asks only for the tick.
      .addCheckConstraint(
        'price_alerts_fired',
        sql`(state = 'active' and fired_at is null and fired_seq is null and fired_ts is null and fired_price is null)
          or (state = 'fired' and fired_at is not null and fired_seq is not null and fired_ts is not null and fired_price is not null)`,
      )
      .execute();
    // The user's list, and the job's read of what is still active, per instrument.
    await db.schema.createIndex('price_alerts_user').on('price_alerts').columns(['user_id', 'id']).execute();
    await db.schema.createIndex('price_alerts_state_symbol').on('price_alerts').columns(['state', 'symbol']).execute();
  },
};
