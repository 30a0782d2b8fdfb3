import type { Kysely } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withId } from '../../../platform/db/migration-kit';

/** Users, sessions, verification codes and their outbox, rate-limit counters. Shipped: never edit, add a new migration. */
export const migration0001: DomainMigration = {
  name: '0001_accounts',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    const id = withId(kind);
    await db.schema
      .createTable('users')
      .$call(id)
      .addColumn('username', 'varchar(32)', (c) => c.notNull().unique())
      .addColumn('email', 'varchar(254)', (c) => c.unique())
      .addColumn('area_code', 'varchar(8)')
      .addColumn('mobile', 'varchar(32)')
      .addColumn('phone', 'varchar(40)', (c) => c.unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('fund_password_hash', 'text')
      .addColumn('invite_code', 'varchar(32)', (c) => c.notNull().unique())
      .addColumn('referrer_id', 'integer', (c) => c.references('users.id'))
      .addColumn('lang', 'varchar(8)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_login_at', 'bigint')
      .execute();
    await db.schema.createIndex('users_mobile').on('users').column('mobile').execute();
    await db.schema.createIndex('users_referrer').on('users').column('referrer_id').execute();

    await db.schema
      .createTable('sessions')
      .$call(id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('verification_codes')
      .$call(id)
      .addColumn('channel', 'varchar(8)', (c) => c.notNull())
      .addColumn('address', 'varchar(254)', (c) => c.notNull())
      .addColumn('scene', 'varchar(16)', (c) => c.notNull())
      .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('consumed_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('verification_codes_target')
      .on('verification_codes')
      .columns(['address', 'scene'])
      .execute();

    await db.schema
      .createTable('code_outbox')
      .$call(id)
      .addColumn('channel', 'varchar(8)', (c) => c.notNull())
      .addColumn('address', 'varchar(254)', (c) => c.notNull())
      .addColumn('scene', 'varchar(16)', (c) => c.notNull())
      .addColumn('code', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('code_outbox_address').on('code_outbox').column('address').execute();

    await db.schema
      .createTable('rate_limit_hits')
      .$call(id)
      .addColumn('bucket', 'varchar(300)', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('rate_limit_hits_bucket').on('rate_limit_hits').columns(['bucket', 'at']).execute();

    await db.schema
      .createTable('platform_settings')
      .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
};
