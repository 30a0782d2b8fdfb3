import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

export type DialectKind = 'sqlite' | 'postgres';

/** An open database plus the dialect, which migrations and a few dialect-specific queries need. */
export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DialectKind;
}

const INT8_OID = 20;

/**
 * PostgreSQL returns bigint (our millisecond times, count(*)) as strings by default. Our values stay far
 * below 2^53, so reading them as numbers keeps both dialects returning the same types.
 */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export function openPostgres(config: pg.PoolConfig): DatabaseHandle {
  const pool = new pg.Pool({ max: 10, ...config, types: pgTypes });
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), kind: 'postgres' };
}

export function openSqlite(file: string): DatabaseHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  // WAL lets `npm run ops` read while the server writes; busy_timeout makes a second process wait instead of failing.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), kind: 'sqlite' };
}

/** PostgreSQL when a URL is given, else the embedded SQLite file `<dataDir>/app.db`. */
export function openDatabase(options: { databaseUrl?: string | undefined; dataDir: string }): DatabaseHandle {
  if (options.databaseUrl) return openPostgres({ connectionString: options.databaseUrl });
  return openSqlite(path.join(options.dataDir, 'app.db'));
}

/** True when an insert or update broke a unique constraint (SQLite and PostgreSQL report it differently). */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null || !('code' in err)) return false;
  return err.code === '23505' || err.code === 'SQLITE_CONSTRAINT_UNIQUE' || err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** The handle of an open Kysely instance (the ops commands get the instance; some need to know the dialect). */
export function handleOf(db: Kysely<Database>): DatabaseHandle {
  return { db, kind: db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite' };
}
