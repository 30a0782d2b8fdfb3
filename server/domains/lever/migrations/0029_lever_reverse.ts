import type { Kysely } from 'kysely';
import type { DomainMigration } from '../../../platform/db/migration-kit';

/**
 * Reversing a position (RULES "Reverse"). Shipped: never edit, add a new migration. A reverse is a whole close and,
 * at the same tick and in the same transaction, a market open of the same lots on the other side as a row of its own.
 *   - reverse_request_id: on a closing (and then closed) row, the client's request id of lever/reverse: the close
 *     was asked as a reverse, so the engine opens the other side at its exit tick; a retry finds the row by it.
 *   - reversed_from: on the row the reverse opened (holding, or cancelled with its reason when the margin was not
 *     there), the position it reversed.
 * Both are nullable, so the rows written before read as they were.
 */
export const migration0029: DomainMigration = {
  name: '0029_lever_reverse',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('lever_positions').addColumn('reverse_request_id', 'varchar(64)').execute();
    await db.schema
      .alterTable('lever_positions')
      .addColumn('reversed_from', 'bigint', (c) => c.references('lever_positions.id'))
      .execute();
  },
};
