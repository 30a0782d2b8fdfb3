import pg from 'pg';
import { migrateToLatest } from './migrations';
import { type DatabaseHandle, openPostgres, openSqlite } from './platform/db/connect';
import type { NewUser } from './platform/db/schema';

/** Helpers for tests that need a real database. Not used by the running server. */

/** A migrated in-memory SQLite database. */
export async function openMemoryDatabase(): Promise<DatabaseHandle> {
  const handle = openSqlite(':memory:');
  await migrateToLatest(handle);
  return handle;
}

/**
 * A PostgreSQL connection confined to a fresh schema (`search_path`), so parallel test files never see each
 * other's rows; `close` drops the schema. Not migrated: callers decide when.
 */
export async function openPostgresSchema(url: string): Promise<{ handle: DatabaseHandle; close(): Promise<void> }> {
  const schema = `t_${Math.random().toString(36).slice(2, 12)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const handle = openPostgres({ connectionString: url, options: `-c search_path=${schema}`, max: 4 });
  return {
    handle,
    async close() {
      await handle.db.destroy();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

/** Inserts a bare user row (no real password) and returns its id. */
export async function insertUser(handle: DatabaseHandle, fields: Partial<NewUser> = {}): Promise<number> {
  const suffix = Math.random().toString(36).slice(2, 10).toUpperCase();
  const row = await handle.db
    .insertInto('users')
    .values({
      username: `u${suffix.toLowerCase()}`,
      password_hash: 'not a hash',
      invite_code: suffix,
      lang: 'de',
      created_at: 1,
      email: null,
      area_code: null,
      mobile: null,
      phone: null,
      fund_password_hash: null,
      referrer_id: null,
      last_login_at: null,
      ...fields,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
