import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withBigId } from '../../../platform/db/migration-kit';

/** IEO projects and subscriptions. Shipped: never edit, add a new migration. */
export const migration0015: DomainMigration = {
  name: '0015_ieo',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    const id = withBigId(kind);
    // A project as the operator created it (audited); its times fix every step. Supply and cap are minor units of the
    // coin; prices are decimal text. The step columns record when the job carried out each step, once.
    await db.schema
      .createTable('ieo_projects')
      .$call(id)
      .addColumn('coin', 'varchar(12)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('description', 'varchar(1000)', (c) => c.notNull())
      .addColumn('ieo_price', 'varchar(40)', (c) => c.notNull())
      .addColumn('listing_price', 'varchar(40)', (c) => c.notNull())
      .addColumn('total_supply', 'varchar(40)', (c) => c.notNull())
      .addColumn('circulating_supply', 'varchar(40)', (c) => c.notNull())
      .addColumn('supply', 'bigint', (c) => c.notNull())
      .addColumn('user_cap', 'bigint', (c) => c.notNull())
      .addColumn('starts_at', 'bigint', (c) => c.notNull())
      .addColumn('ends_at', 'bigint', (c) => c.notNull())
      .addColumn('allot_at', 'bigint', (c) => c.notNull())
      .addColumn('pay_until', 'bigint', (c) => c.notNull())
      .addColumn('list_at', 'bigint', (c) => c.notNull())
      .addColumn('unlock_at', 'bigint', (c) => c.notNull())
      .addColumn('demand', 'bigint')
      .addColumn('allotted_at', 'bigint')
      .addColumn('lapsed_at', 'bigint')
      .addColumn('listed_at', 'bigint')
      .addColumn('unlocked_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint(
        'ieo_projects_times',
        sql`starts_at < ends_at and ends_at <= allot_at and allot_at < pay_until and pay_until <= list_at and list_at <= unlock_at`,
      )
      .execute();
    // One subscription per user and project. `phase` moves forward only, by conditional updates in the transaction
    // of its money (payment hold, coin credit and lock hold), so each step happens once.
    await db.schema
      .createTable('ieo_subscriptions')
      .$call(id)
      .addColumn('project_id', 'bigint', (c) => c.notNull().references('ieo_projects.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('asked', 'bigint', (c) => c.notNull())
      .addColumn('allotted', 'bigint')
      .addColumn('payment', 'bigint')
      .addColumn('phase', 'varchar(10)', (c) => c.notNull())
      .addColumn('pay_hold_id', 'bigint', (c) => c.references('ledger_holds.id'))
      .addColumn('lock_hold_id', 'bigint', (c) => c.references('ledger_holds.id'))
      .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('request_digest', 'varchar(64)', (c) => c.notNull())
      .addColumn('paid_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint(
        'ieo_subscriptions_phase',
        sql`phase in ('subscribed', 'failed', 'allotted', 'lapsed', 'paid', 'locked', 'unlocked')`,
      )
      .execute();
    await db.schema
      .createIndex('ieo_subscriptions_once')
      .unique()
      .on('ieo_subscriptions')
      .columns(['project_id', 'user_id'])
      .execute();
    await db.schema.createIndex('ieo_subscriptions_user').on('ieo_subscriptions').columns(['user_id', 'id']).execute();
    await db.schema
      .createIndex('ieo_subscriptions_project')
      .on('ieo_subscriptions')
      .columns(['project_id', 'phase'])
      .execute();
  },
};
