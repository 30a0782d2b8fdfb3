import type { Kysely } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withId } from '../../../platform/db/migration-kit';

/** The steps order actors reported (live inspection, role qa). Shipped: never edit, add a new migration. */
export const migration0024: DomainMigration = {
  name: '0024_inspection',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    // One snapshot of one actor: the event it received and the atomic states active after it. Kept for a day
    // (TRACE_KEEP_MS), at most TRACE_ACTOR_MAX per actor. `order_id` names a row of the machine's own table, checked
    // to be the user's when the step arrived (no foreign key: five machines, five tables).
    await db.schema
      .createTable('actor_traces')
      .$call(withId(kind))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('machine', 'varchar(32)', (c) => c.notNull())
      .addColumn('order_id', 'integer', (c) => c.notNull())
      .addColumn('actor', 'varchar(32)', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('event', 'varchar(120)', (c) => c.notNull())
      .addColumn('states', 'varchar(1000)', (c) => c.notNull())
      .addColumn('received_at', 'bigint', (c) => c.notNull())
      .execute();
    // An order's steps in arrival order (the console's live view reads those after its cursor).
    await db.schema
      .createIndex('actor_traces_order')
      .on('actor_traces')
      .columns(['machine', 'order_id', 'id'])
      .execute();
    // A user's traced orders; the daily clean-up.
    await db.schema.createIndex('actor_traces_user').on('actor_traces').columns(['user_id', 'received_at']).execute();
    // An actor's steps once each, whatever it sent again (its seq counts every snapshot it took, across orders).
    await db.schema.createIndex('actor_traces_step').on('actor_traces').columns(['actor', 'seq']).unique().execute();
    await db.schema.createIndex('actor_traces_received').on('actor_traces').column('received_at').execute();
  },
};
