import { type CreateTableBuilder, type Kysely, type Migration, Migrator } from 'kysely';
import type { DatabaseHandle, DialectKind } from './connect';

/** An auto-increment integer primary key named `id`, spelled the way each dialect wants it. */
const withId =
  (kind: DialectKind) =>
  <T extends string>(table: CreateTableBuilder<T>): CreateTableBuilder<T, 'id'> =>
    kind === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

/**
 * Migrations live in code (not files) so they run the same under tsx, vitest and any bundling.
 * Names sort in order; never edit a migration that has shipped, add a new one.
 */
export function migrations(kind: DialectKind): Record<string, Migration> {
  const id = withId(kind);
  return {
    '0001_accounts': {
      async up(db: Kysely<unknown>) {
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
    },
    '0002_market': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('price_ticks')
          .$call(id)
          .addColumn('instrument_id', 'integer', (c) => c.notNull())
          .addColumn('symbol', 'varchar(16)', (c) => c.notNull())
          .addColumn('ts', 'bigint', (c) => c.notNull())
          .addColumn('price', 'varchar(40)', (c) => c.notNull())
          .addColumn('seq', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('price_ticks_symbol_ts').on('price_ticks').columns(['symbol', 'ts']).execute();
        await db.schema.createIndex('price_ticks_ts').on('price_ticks').column('ts').execute();

        await db.schema
          .createTable('favourites')
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
          .addColumn('symbol', 'varchar(16)', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('favourites_pk', ['user_id', 'symbol'])
          .execute();
      },
    },
  };
}

/** Brings the schema up to date; throws (with the failing migration's error) when one fails. */
export async function migrateToLatest({ db, kind }: DatabaseHandle): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(kind) } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed`, { cause: error });
  }
}
