import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../platform/db/connect';
import type { DomainMigration } from '../../platform/db/migration-kit';

/**
 * The hash chain of the price record (RULES.md "Common ground"): one `price_batches` row per recorder flush, each
 * tick naming its batch, and `price_pins` for the ticks that orders and settlements use (kept past the retention).
 * Shipped: never edit, add a new migration.
 */
export const migration0009: DomainMigration = {
  name: '0009_price_chain',
  async up(db: Kysely<unknown>, _kind: DialectKind) {
    // The id is the batch number (1, 2, 3 ... without gaps), set by the recorder rather than a sequence: a
    // sequence skips numbers on a rolled-back insert, and a gap would look like a removed batch. bigint: one
    // batch a second outlives PostgreSQL's 32-bit serial range.
    await db.schema
      .createTable('price_batches')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('from_ts', 'bigint', (c) => c.notNull())
      .addColumn('to_ts', 'bigint', (c) => c.notNull())
      .addColumn('tick_count', 'integer', (c) => c.notNull())
      .addColumn('digest', 'varchar(64)', (c) => c.notNull())
      .addColumn('prev_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    // Retention finds the batches past it by time.
    await db.schema.createIndex('price_batches_to_ts').on('price_batches').column('to_ts').execute();

    // Null until the tick is sealed into a batch (a tick pinned before the recorder flushed it). No foreign key:
    // the recorder writes a batch's ticks before its row, in one transaction.
    await db.schema.alterTable('price_ticks').addColumn('batch_id', 'bigint').execute();
    // Earlier runs (a live source restarted at seq 1) may have recorded the same (symbol, seq) twice: keep the
    // first, which is the one that was published first under that number.
    await sql`delete from price_ticks where exists (
      select 1 from price_ticks as older
      where older.symbol = price_ticks.symbol and older.seq = price_ticks.seq and older.id < price_ticks.id
    )`.execute(db);
    // A tick is named by (symbol, seq) everywhere (fills, pins, the chain calls): exactly one row each.
    await db.schema
      .createIndex('price_ticks_symbol_seq')
      .on('price_ticks')
      .columns(['symbol', 'seq'])
      .unique()
      .execute();
    await db.schema.createIndex('price_ticks_batch_id').on('price_ticks').column('batch_id').execute();

    // One row per (tick, user of it): `owner` names the order or settlement ('spot:123'); retention keeps the
    // batches of pinned ticks whole for as long as a pin exists.
    await db.schema
      .createTable('price_pins')
      .addColumn('symbol', 'varchar(16)', (c) => c.notNull())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('owner', 'varchar(64)', (c) => c.notNull())
      .addPrimaryKeyConstraint('price_pins_pk', ['symbol', 'seq', 'owner'])
      .execute();
  },
};
