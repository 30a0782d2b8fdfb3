import type { Kysely } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withId } from '../../../platform/db/migration-kit';

/** Operators of the support console and their sessions. Shipped: never edit, add a new migration. */
export const migration0019: DomainMigration = {
  name: '0019_operators',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    const id = withId(kind);
    // Accounts of their own, apart from users: a user's session opens nothing of the console and an operator is no
    // user. The TOTP secret is sealed under the data key; the last TOTP step used refuses a code a second time.
    await db.schema
      .createTable('operators')
      .$call(id)
      .addColumn('name', 'varchar(32)', (c) => c.notNull().unique())
      .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
      .addColumn('totp_secret_enc', 'varchar(255)', (c) => c.notNull())
      .addColumn('totp_last_step', 'bigint')
      .addColumn('roles', 'varchar(64)', (c) => c.notNull())
      .addColumn('disabled_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_login_at', 'bigint')
      .execute();
    // Console sessions: only sha256 of the token, an idle and an absolute expiry.
    await db.schema
      .createTable('operator_sessions')
      .$call(id)
      .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id'))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('operator_sessions_operator')
      .on('operator_sessions')
      .columns(['operator_id', 'revoked_at'])
      .execute();
  },
};
