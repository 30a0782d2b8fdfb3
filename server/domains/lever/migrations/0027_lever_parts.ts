import type { Kysely } from 'kysely';
import type { DomainMigration } from '../../../platform/db/migration-kit';

/**
 * Partial closes (RULES "Partial close"). Shipped: never edit, add a new migration. A position that closes some of
 * its lots stays one row (same id, holding) with fewer lots and the margin left; the closed part becomes a row of its
 * own, closed at its exit tick like a whole close, so that each settlement names its ticks and re-checks alone.
 *   - close_lots, close_request_id: on a closing row, the lots the accepted close will close (null: all) and the
 *     client's request id (a retry of the same close answers, another close is refused while it waits).
 *   - part_of: on a closed part, the position it was closed from.
 *   - opened_lots, earlier_parts: the lots the position opened with and, in order, the lots of the parts closed off
 *     it before (comma-separated; on a part, those before it). With the entry tick they fix the initial margin and the
 *     open fee the row holds (rules afterParts), so a re-check needs no other row. Null: opened with `lots`, no parts.
 *   - basis_*: on a closed part, the position's lots, initial margin, added margin and open fee just before the split.
 * Every column is nullable, so the rows written before read as they were.
 */
export const migration0027: DomainMigration = {
  name: '0027_lever_parts',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('lever_positions').addColumn('close_lots', 'bigint').execute();
    await db.schema.alterTable('lever_positions').addColumn('close_request_id', 'varchar(64)').execute();
    await db.schema
      .alterTable('lever_positions')
      .addColumn('part_of', 'bigint', (c) => c.references('lever_positions.id'))
      .execute();
    await db.schema.alterTable('lever_positions').addColumn('opened_lots', 'bigint').execute();
    await db.schema.alterTable('lever_positions').addColumn('earlier_parts', 'text').execute();
    await db.schema.alterTable('lever_positions').addColumn('basis_lots', 'bigint').execute();
    await db.schema.alterTable('lever_positions').addColumn('basis_margin', 'bigint').execute();
    await db.schema.alterTable('lever_positions').addColumn('basis_added_margin', 'bigint').execute();
    await db.schema.alterTable('lever_positions').addColumn('basis_open_fee', 'bigint').execute();
    // A position's parts, for its detail page.
    await db.schema.createIndex('lever_positions_part_of').on('lever_positions').column('part_of').execute();
  },
};
