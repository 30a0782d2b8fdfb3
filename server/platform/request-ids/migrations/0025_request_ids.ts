import type { Kysely } from 'kysely';
import type { DialectKind } from '../../db/connect';
import type { DomainMigration } from '../../db/migration-kit';

/** The claims of client request ids (platform/request-ids). Shipped: never edit, add a new migration. */
export const migration0025: DomainMigration = {
  name: '0025_request_ids',
  async up(db: Kysely<unknown>, _kind: DialectKind) {
    // One row per request id a user ever sent to a call that takes one: which call it went to and the digest of its
    // arguments. The primary key is what makes a claim atomic in both dialects (insert, or find the one that won).
    await db.schema
      .createTable('request_ids')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('call_path', 'varchar(64)', (c) => c.notNull())
      .addColumn('request_digest', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      // 1 once a service confirmed the claim in the transaction of its effect: such a claim is never released.
      .addColumn('applied', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('request_ids_pk', ['user_id', 'request_id'])
      .execute();
  },
};
